/**
 * Alipay OpenAPI 2.0's RSA2 signatures as the gateway's side makes and checks
 * them, written from Alipay's published rules (https://opendocs.alipay.com/common/02kf5q
 * for requests and answers, the asynchronous notification's "验签" steps for
 * notifications) and deliberately not through alipay-sdk: the shop's adapter
 * speaks through the SDK, the development sandbox through this, so each checks
 * the other (tests/unit/alipay-gateway-signing.test.ts checks both against
 * `openssl` too).
 *
 * - A request is signed over all its parameters but `sign`, a notification
 *   (and the return to `return_url`) over all but `sign` and `sign_type`; in
 *   both, parameters with empty values are left out, the rest sorted by name
 *   in ASCII order and written `name=value` joined by `&`, the values as
 *   received (decoded, never URL-encoded again).
 * - An answer's signature covers the exact JSON text of its
 *   `<method_with_underscores>_response` object as it stands in the body.
 */
import { createSign, createVerify, type KeyObject } from 'node:crypto';

/** The one signature type the sandbox speaks: SHA256withRSA. */
export const signType = 'RSA2';

/** The text to sign: the parameters but those left out and the empty ones, sorted by name (ASCII), `name=value` joined by `&`. */
function signContent(params: Record<string, string>, leftOut: readonly string[]): string {
  return Object.keys(params)
    .filter((name) => !leftOut.includes(name) && params[name] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

/** What a request's `sign` covers: every parameter but `sign`. */
export const requestSignContent = (params: Record<string, string>): string => signContent(params, ['sign']);

/** What a notification's (or a return's) `sign` covers: every parameter but `sign` and `sign_type`. */
export const notificationSignContent = (params: Record<string, string>): string => signContent(params, ['sign', 'sign_type']);

/** An SHA256withRSA signature of the UTF-8 text, in base64. */
export const rsa2Sign = (content: string, privateKey: KeyObject): string => createSign('sha256').update(content, 'utf8').sign(privateKey, 'base64');

/** Whether the base64 `signature` of the UTF-8 text holds for the public key. */
export function rsa2Holds(content: string, signature: string, publicKey: KeyObject): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  return createVerify('sha256').update(content, 'utf8').verify(publicKey, signature, 'base64');
}

/** Whether a request (its parameters, query and form together) is signed by the app's key. */
export const requestSignatureHolds = (params: Record<string, string>, appPublicKey: KeyObject): boolean =>
  rsa2Holds(requestSignContent(params), params.sign ?? '', appPublicKey);

/**
 * The body of a signed answer: `{"<responseKey>":<the answer>,"sign":"…"}`,
 * the signature over the answer's JSON text exactly as it stands there.
 */
export function signedAnswer(responseKey: string, answer: object, alipayPrivateKey: KeyObject): string {
  const text = JSON.stringify(answer);
  return `{${JSON.stringify(responseKey)}:${text},"sign":${JSON.stringify(rsa2Sign(text, alipayPrivateKey))}}`;
}

/** A notification's (or a return's) parameters with `sign_type` and `sign` added, signed by Alipay's key. */
export function signedNotification(params: Record<string, string>, alipayPrivateKey: KeyObject): Record<string, string> {
  const withType = { ...params, sign_type: signType };
  return { ...withType, sign: rsa2Sign(notificationSignContent(withType), alipayPrivateKey) };
}
