/**
 * Short-lived tokens signed with the server secret (HMAC-SHA256): the hub
 * token, the store token and the customer-service user reference. Each purpose
 * signs differently, so one kind can never be passed off as another.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedClaims {
  /** The user id. */
  sub: number;
  /** The session it was issued to, where ending the session must end what the token opened (hub connections). */
  sid?: string;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
}

function mac(secret: Buffer, purpose: string, body: string): string {
  return createHmac('sha256', secret).update(`${purpose}.${body}`).digest('base64url');
}

export function signToken(secret: Buffer, purpose: string, claims: SignedClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${mac(secret, purpose, body)}`;
}

/** The claims of a valid, unexpired token of this purpose; otherwise null. */
export function verifyToken(secret: Buffer, purpose: string, token: string, now = Date.now()): SignedClaims | null {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, purpose, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SignedClaims;
    const sidOk = claims.sid === undefined || typeof claims.sid === 'string';
    return Number.isInteger(claims.sub) && sidOk && typeof claims.exp === 'number' && claims.exp > now ? claims : null;
  } catch {
    return null;
  }
}
