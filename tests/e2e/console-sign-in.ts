/** Signing in to the operators' console in a browser test, as a new operator would. */
import { expect, type Locator, type Page } from '@playwright/test';
import { generate } from 'otplib';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { admin } from './admin-cli.ts';
import { localizePath, say } from './routes.ts';
import { codeSentBy, keep, newPhone, registerFresh } from './session.ts';

export /** A new account given `role` at the shell, set up and signed in at the console (the page is on /admin); answers its user id. */
async function signInToConsole(page: Page, role: 'support' | 'operator' | 'admin', locale: LocaleCode): Promise<number> {
  const phone = newPhone();
  const operator = await registerFresh(page, phone);
  await admin('role', 'grant', String(operator.User.Id), role);
  await keep(page, operator);
  await page.goto(localizePath(locale, '/admin'));
  // Enrolling starts with a code to the operator's own phone.
  const sent = await codeSentBy(page, phone, () => page.getByRole('button', { name: say(locale, 'console.enrol.send') }).click());
  await page.getByLabel(say(locale, 'console.enrol.ownCode')).fill(sent);
  await page.getByRole('button', { name: say(locale, 'console.signIn.submit') }).click();
  const secret = (await page.locator('[data-totp-secret]').innerText()).replaceAll(' ', '');
  await page.getByLabel(say(locale, 'console.enrol.code')).fill(await generate({ secret }));
  await page.getByRole('button', { name: say(locale, 'console.signIn.submit') }).click();
  await page.getByRole('button', { name: say(locale, 'console.recovery.kept') }).click();
  await expect(page.locator('[data-console-who]')).toContainText(say(locale, `console.role.${role}`));
  return operator.User.Id;
}

/** The console's menu (the areas, who is signed in, sign-out), opened first on a phone, where it waits behind its button. */
export async function consoleMenu(page: Page): Promise<Locator> {
  const toggle = page.locator('[data-console-menu-toggle]');
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  return page.locator('[data-console-menu]');
}
