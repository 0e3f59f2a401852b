/** Signing in to the operators' console in a browser test, as a new operator would. */
import { expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { admin } from './admin-cli.ts';
import { localizePath, say } from './routes.ts';
import { keep, registerFresh } from './session.ts';

export /** A new account given `role` at the shell, set up and signed in at the console (the page is on /admin); answers its user id. */
async function signInToConsole(page: Page, role: 'support' | 'operator' | 'admin', locale: LocaleCode): Promise<number> {
  const operator = await registerFresh(page);
  await admin('role', 'grant', String(operator.User.Id), role);
  await keep(page, operator);
  await page.goto(localizePath(locale, '/admin'));
  const secret = (await page.locator('[data-totp-secret]').innerText()).replaceAll(' ', '');
  await page.getByLabel(say(locale, 'console.enrol.code')).fill(await generate({ secret }));
  await page.getByRole('button', { name: say(locale, 'console.signIn.submit') }).click();
  await page.getByRole('button', { name: say(locale, 'console.recovery.kept') }).click();
  await expect(page.locator('[data-console-who]')).toContainText(say(locale, `console.role.${role}`));
  return operator.User.Id;
}
