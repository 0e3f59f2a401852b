/**
 * Logs accounts in through the real API (sealed exactly as the site seals) and
 * puts the session into the page's localStorage before any page script runs —
 * for tests of pages that need login, not of login itself. Every call makes a
 * session of its own, so a test may end it without touching another test's.
 */
import { expect, type Page } from '@playwright/test';
import type { ApiRoute, ResponseOf } from '#contract/api.ts';
import { encryption } from '#contract/crypto.ts';
import { dev } from '#contract/dev.ts';
import { identity, system, type LoginResult } from '#contract/identity.ts';
import type { AuthToken } from '@/lib/auth-token.ts';
import { createSealer, importPublicKey } from '@/lib/api/crypto.ts';

/**
 * Makes one sealed call of the contract from the test, as the site would (from
 * the address `from`, through the server's trusted proxy, when given);
 * resolves to the envelope's data, or throws its message.
 */
export async function sealedCall<R extends ApiRoute>(page: Page, route: R, body: unknown, token?: string, from?: string): Promise<ResponseOf<R>> {
  const spki = (await (await page.request.get(`/api${system.publicKey.path}`)).json()).data.Spki as string;
  const sealer = await createSealer(await importPublicKey(spki));
  const response = await page.request.fetch(`/api${route.path}`, {
    method: route.method,
    headers: {
      [encryption.keyHeader]: sealer.wrappedKey,
      'content-type': encryption.contentType,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(from ? { 'x-forwarded-for': from } : {}),
    },
    data: await sealer.seal(JSON.stringify(body)),
  });
  const envelope = JSON.parse(await sealer.open(await response.text()));
  if (envelope.code !== 200) throw new Error(`${route.path}: ${envelope.message}`);
  return envelope.data;
}

/** The messages the development outbox holds for a phone number or address, oldest first. */
export async function outbox(page: Page, to: string): Promise<string[]> {
  const response = await page.request.get(`/api${dev.outbox.path}?to=${encodeURIComponent(to)}`);
  return ((await response.json()).data as Array<{ text: string }>).map((message) => message.text);
}

/** The code in the newest message to `to`. */
export async function lastCode(page: Page, to: string): Promise<string> {
  return /\d{6}/.exec((await outbox(page, to)).at(-1) ?? '')![0];
}

/** Does what sends a code to `to` (a click, usually), waits for the message to arrive in the outbox, and gives its code. */
export async function codeSentBy(page: Page, to: string, send: () => Promise<unknown>): Promise<string> {
  const before = (await outbox(page, to)).length;
  await send();
  await expect.poll(async () => (await outbox(page, to)).length).toBeGreaterThan(before);
  return lastCode(page, to);
}

/** Puts a login into the page's storage, as the login page would. */
export async function keep(page: Page, result: LoginResult): Promise<AuthToken> {
  const auth: AuthToken = { AccessToken: result.AccessToken, ExpiresIn: result.ExpiresIn };
  // Init scripts run on every page load: the login is put in once per tab, so a test can still sign out or delete it.
  await page.addInitScript(
    ({ auth, user }) => {
      if (sessionStorage.getItem('e2e.signedIn')) return;
      sessionStorage.setItem('e2e.signedIn', '1');
      localStorage.setItem('beacon.auth', JSON.stringify(auth));
      localStorage.setItem('beacon.user', JSON.stringify(user));
    },
    { auth, user: result.User },
  );
  return auth;
}

export async function signInAsDemo(page: Page): Promise<AuthToken> {
  const result = await sealedCall(page, identity.loginByPassword, { Account: '13800000000', Password: 'beacon-demo-2026', DeviceId: 'e2e-device-0001' });
  return keep(page, result);
}

/** A phone number no test has used: a new account on first login. */
export const newPhone = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** Registers a new account by SMS code (read from the outbox) through the API, without putting it into the page. */
export async function registerFresh(page: Page, phone = newPhone()): Promise<LoginResult> {
  // A new user on a network of their own: every test's code would otherwise count against one address's daily limit.
  const address = `10.${[phone.slice(-6, -4), phone.slice(-4, -2), phone.slice(-2)].map(Number).join('.')}`;
  await sealedCall(page, identity.sendSmsCode, { Phone: phone }, undefined, address);
  return sealedCall(page, identity.loginOrRegister, { Phone: phone, Code: await lastCode(page, phone), DeviceId: 'e2e-device-0002' });
}

/** Logs in a new account by SMS code (read from the outbox), for tests that change or delete their account. */
export async function signInFresh(page: Page, phone = newPhone()): Promise<{ phone: string; auth: AuthToken; userId: number }> {
  const result = await registerFresh(page, phone);
  return { phone, auth: await keep(page, result), userId: result.User.Id };
}

/** Logs a new account in on the English login page the browser is on, by SMS code, as a visitor would; returns once the login is stored and the page has moved on. */
export async function logInOnPage(page: Page, phone = newPhone()): Promise<void> {
  await page.getByRole('checkbox').check();
  await page.locator('input[name="phone"]').fill(phone);
  const code = await codeSentBy(page, phone, () => page.getByRole('button', { name: 'Send code' }).click());
  await page.locator('input[name="code"]').fill(code);
  await page.getByRole('button', { name: 'Log in / Register' }).click();
  // The login page leaves once the login is stored: a page opened before then would open logged out.
  await page.waitForURL((url) => !url.pathname.endsWith('/account/login'));
}
