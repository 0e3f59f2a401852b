/**
 * Desktop sign-in approval end to end: the desktop client (scripts/desktop-sign-in.ts,
 * in its own process) asks; a person opens its address in Chromium, logs in if
 * needed, sees the device and approves or refuses; the client hears the answer.
 */
import { spawn } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { seriousAxeProblems } from './axe.ts';
import { say } from './routes.ts';
import { codeSentBy, newPhone, signInFresh } from './session.ts';

/** Starts the desktop client; resolves its approval address, and later how it ended. */
function desktopClient(baseURL: string, lang: LocaleCode) {
  const child = spawn(process.execPath, ['scripts/desktop-sign-in.ts', '--url', baseURL, '--lang', lang]);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const ended = new Promise<{ code: number | null; output: string }>((resolve) => child.on('close', (code) => resolve({ code, output })));
  const address = async () => {
    await expect.poll(() => /Open: (\S+)/.exec(output)?.[1] ?? null, { timeout: 20_000 }).not.toBeNull();
    return { url: /Open: (\S+)/.exec(output)![1], code: /Code: (\S+)/.exec(output)![1] };
  };
  return { address, ended, stop: () => child.kill() };
}

async function decide(page: Page, locale: LocaleCode, approve: boolean) {
  const approval = page.locator('[data-device-approval]');
  await expect(approval).toContainText(say(locale, 'login.device.title'));
  await approval.getByRole('button', { name: say(locale, approve ? 'login.device.approve' : 'login.device.refuse') }).click();
  await expect(approval.getByRole('status')).toHaveText(say(locale, approve ? 'login.device.approved' : 'login.device.refused'));
}

for (const [locale, approve] of [
  ['en', true],
  ['ja', false],
] as const) {
  test(`a logged-in person ${approve ? 'approves' : 'refuses'} a desktop sign-in from its address, and the desktop client hears it (${locale})`, async ({
    page,
    baseURL,
  }) => {
    await signInFresh(page);
    const client = desktopClient(baseURL!, locale);
    try {
      const { url, code } = await client.address();
      await page.goto(url);
      await expect(page.locator('.device-code')).toHaveText(code);
      await expect(page.locator('[data-device-approval]')).toContainText(' · ');
      expect(await seriousAxeProblems(page)).toEqual([]);
      await decide(page, locale, approve);
      const ended = await client.ended;
      expect(ended.code, ended.output).toBe(approve ? 0 : 1);
      if (approve) expect(ended.output).toMatch(/Signed in as .+ \(user \d+\)/);
    } finally {
      client.stop();
    }
  });
}

test('a visitor who is not logged in logs in on the approval page and comes back to the request (zh-CN)', async ({ page, baseURL }) => {
  const client = desktopClient(baseURL!, 'zh-CN');
  try {
    const { url } = await client.address();
    await page.goto(url);
    await expect(page.getByText(say('zh-CN', 'login.device.loginFirst'))).toBeVisible();
    const phone = newPhone();
    await page.locator('input[name=phone]').fill(phone);
    await page.getByRole('checkbox').check();
    const code = await codeSentBy(page, phone, () => page.getByRole('button', { name: say('zh-CN', 'login.sendCode') }).click());
    await page.locator('input[name=code]').fill(code);
    await page.getByRole('button', { name: say('zh-CN', 'login.submit') }).click();
    await decide(page, 'zh-CN', true);
    expect((await client.ended).code).toBe(0);
  } finally {
    client.stop();
  }
});

test('a person types the code shown in the desktop app, and refuses (ru)', async ({ page, baseURL }) => {
  await signInFresh(page);
  const client = desktopClient(baseURL!, 'ru');
  try {
    const { url, code } = await client.address();
    await page.goto(url.replace(/=[A-Z-]+$/, '='));
    await page.locator('input[name=device-code]').fill(code.toLowerCase().replace('-', ''));
    await page.getByRole('button', { name: say('ru', 'login.device.find') }).click();
    await decide(page, 'ru', false);
    expect((await client.ended).code).toBe(1);
  } finally {
    client.stop();
  }
});
