/** What every quick-login provider does, whatever its protocol. */
import type { OutboundFetch } from '../../../services/outbound-http.ts';

/** The secrets of one started login, kept on the server until the browser comes back. */
export interface Flow {
  state: string;
  /** The PKCE code verifier (OpenID Connect). */
  verifier: string;
  /** The nonce the ID token must carry (OpenID Connect). */
  nonce: string;
  /** The address the provider sends the browser back to. */
  callbackUrl: string;
}

/** The identity a provider vouches for: its stable id there and a name to show. */
export interface Identity {
  subject: string;
  /** The provider's name for the person; the subject itself when the provider gives none. */
  displayName: string;
}

export interface IdentityProvider {
  /** The provider's sign-in page for this login. */
  signInUrl(flow: Flow): Promise<string>;
  /** Checks the browser's return from the provider (`callback` is the full URL it came back to). Throws `ExternalLoginFailure`. */
  identify(callback: URL, flow: Flow): Promise<Identity>;
  /** An image on the provider's sign-in site, which the browser loads to see whether it can reach the site. */
  checkUrl: string | null;
}

/** Reads a provider's JSON answer through the outbound client (its deadline, size cap and address rules); any answer but 2xx fails. */
export async function fetchJson(fetch: OutboundFetch, url: string | URL, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
  return response.json();
}
