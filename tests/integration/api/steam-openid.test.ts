/**
 * The Steam verifier (server/modules/identity/external/steam.ts) speaks
 * OpenID 2.0, so it is held against an implementation we did not write: the
 * `openid` package's relying party. Both are given the development Steam
 * provider's own assertions, real and tampered with, and must agree on each.
 * (The provider confirms each signature once, so a real assertion is made for
 * each of them; a tampered one is never confirmed and goes to both.)
 */
import openid from 'openid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devIdentityProvider } from '#contract/dev.ts';
import { steamProvider } from '../../../server/modules/identity/external/steam.ts';
import type { IdentityProvider } from '../../../server/modules/identity/external/provider.ts';
import { freePort } from '../../setup/free-port.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
let origin: string;
let identifier: string;
let returnTo: string;
let ours: IdentityProvider;
let steamSeq = 0;
const newSteamId = () => `7656119${String(7_000_000_000 + ++steamSeq)}`;

beforeAll(async () => {
  const port = await freePort();
  t = await startApp({ HOST: '127.0.0.1', PORT: String(port) });
  await t.app.listen({ port, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${port}`;
  identifier = `${origin}/api${devIdentityProvider.path}/steam`;
  returnTo = `${origin}/api/ExternalLoginDetection/steam/callback`;
  ours = steamProvider({ identifier, webApi: `${identifier}/api`, apiKey: null, checkUrl: `${identifier}/check.svg` }, t.app.db, t.app.outbound);
});
afterAll(() => t.close());

/** A real assertion of the development provider for `steamId`, made out to `returnTo`: the address it sends the browser back to. */
async function assertion(steamId: string): Promise<URL> {
  const answer = await fetch(`${identifier}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision: 'allow', id: steamId, name: 'Gordon', return_to: returnTo }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

/** Our verifier's answer: the Steam id, or null when it refuses. */
async function ourVerdict(url: URL): Promise<string | null> {
  try {
    return (await ours.identify(url, { state: 's', verifier: 'v', nonce: 'n', callbackUrl: returnTo })).subject;
  } catch {
    return null;
  }
}

/** The `openid` package's answer: the Steam id it authenticated, or null. */
function theirVerdict(url: URL): Promise<string | null> {
  const party = new openid.RelyingParty(returnTo, origin, true, false, []);
  return new Promise((resolve) => {
    party.verifyAssertion(url.href, (error, result) => {
      const claimed = !error && result?.authenticated ? result.claimedIdentifier : undefined;
      resolve(claimed ? claimed.slice(`${identifier}/id/`.length) : null);
    });
  });
}

describe('the development Steam provider’s assertions', () => {
  it('are accepted by both, for the Steam id they name', async () => {
    const steamId = newSteamId();
    expect(await ourVerdict(await assertion(steamId))).toBe(steamId);
    expect(await theirVerdict(await assertion(steamId))).toBe(steamId);
  });

  const tamperings: Array<[string, (params: URLSearchParams) => void]> = [
    [
      'another Steam id claimed',
      (params) => {
        params.set('openid.claimed_id', `${identifier}/id/${newSteamId()}`);
        params.set('openid.identity', params.get('openid.claimed_id')!);
      },
    ],
    ['the signature changed', (params) => params.set('openid.sig', Buffer.alloc(32, 7).toString('base64'))],
    ['another nonce', (params) => params.set('openid.response_nonce', `${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}forged`)],
    ['made out to another address', (params) => params.set('openid.return_to', 'https://elsewhere.example/callback')],
    ['return_to left out of the signed fields', (params) => params.set('openid.signed', 'signed,op_endpoint,claimed_id,identity,response_nonce,assoc_handle')],
    ['from another endpoint', (params) => params.set('openid.op_endpoint', 'https://steamcommunity.example/openid/login')],
  ];

  it.each(tamperings)('are refused by both when tampered with: %s', async (_what, tamper) => {
    const url = await assertion(newSteamId());
    tamper(url.searchParams);
    expect(await ourVerdict(url)).toBeNull();
    expect(await theirVerdict(url)).toBeNull();
  });
});
