/** The part of the `openid` package (OpenID 2.0 relying party) the Steam verifier is tested against; the package ships no types, and is CommonJS, so Node offers it as a default export only. */
declare module 'openid' {
  interface OpenIdError {
    message: string;
  }
  interface Assertion {
    authenticated: boolean;
    claimedIdentifier?: string;
  }
  interface RelyingParty {
    authenticate(identifier: string, immediate: boolean, callback: (error: OpenIdError | null, authUrl: string | null) => void): void;
    verifyAssertion(url: string, callback: (error: OpenIdError | null, result: Assertion | null) => void): void;
  }
  const openid: {
    RelyingParty: new (returnUrl: string, realm: string | null, stateless: boolean, strict: boolean, extensions: unknown[]) => RelyingParty;
  };
  export default openid;
}
