/**
 * Logs the seeded demo account in through the real API (sealed exactly as the
 * site seals) and puts the session into the page's localStorage before any
 * page script runs — for tests of pages that need login, not of login itself.
 * Every call makes a session of its own, so a test may end it without
 * touching another test's.
 */
import type { Page } from '@playwright/test';
import { encryption } from '#contract/crypto.ts';
import { identity, system } from '#contract/identity.ts';
import type { AuthToken } from '@/lib/auth-token.ts';
import { createSealer, importPublicKey } from '@/lib/api/crypto.ts';

export async function signInAsDemo(page: Page): Promise<AuthToken> {
  const spki = (await (await page.request.get(`/api${system.publicKey.path}`)).json()).data.Spki as string;
  const sealer = await createSealer(await importPublicKey(spki));
  const response = await page.request.post(`/api${identity.loginByPassword.path}`, {
    headers: { [encryption.keyHeader]: sealer.wrappedKey, 'content-type': encryption.contentType },
    data: await sealer.seal(JSON.stringify({ Account: '13800000000', Password: 'beacon-demo-2026', DeviceId: 'e2e-device-0001' })),
  });
  const result = JSON.parse(await sealer.open(await response.text())).data;
  const auth: AuthToken = { AccessToken: result.AccessToken, ExpiresIn: result.ExpiresIn };
  await page.addInitScript(
    ({ auth, user }) => {
      localStorage.setItem('beacon.auth', JSON.stringify(auth));
      localStorage.setItem('beacon.user', JSON.stringify(user));
    },
    { auth, user: result.User },
  );
  return auth;
}
