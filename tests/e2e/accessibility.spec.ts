import { expect, test, type Page } from '@playwright/test';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { seriousAxeProblems } from './axe.ts';
import { settled } from './page-checks.ts';
import { localizePath, locales } from './routes.ts';
import { signInAsDemo } from './session.ts';

/** One page of every type the site has; account pages are checked logged in, as customers see them. */
const pageTypes = [
  '/',
  '/download',
  '/accelerate',
  '/article',
  '/article/getting-started',
  '/faq',
  '/changelog',
  '/agreement/auto',
  '/plugin',
  '/plugin/authenticator',
  '/recharge/steam',
  '/activate/cdkey',
  '/raffle',
  '/raffle/forthwith',
  '/customer/service',
  '/search',
  '/translation-status',
  '/admin',
  '/account/login',
  '/account/center/info',
  '/account/center/steam/cloudidea',
  '/account/center/game',
  '/account/center/steam/point',
  '/account/center/wallet',
  '/account/center/redemption',
  '/account/center/order',
  '/account/center/agreements',
  '/payment',
  '/wechatpay',
  '/faqbox',
  '/no-such-page',
];

/** The serious axe findings on each page, logged in as the demo customer. */
async function axeProblems(page: Page, locale: LocaleCode, paths: string[]): Promise<string[]> {
  await signInAsDemo(page);
  const problems: string[] = [];
  for (const path of paths) {
    await page.goto(localizePath(locale, path));
    await settled(page);
    problems.push(...(await seriousAxeProblems(page)));
  }
  return problems;
}

// Every page type in the default language, in both themes…
const [first, ...others] = locales;
for (const theme of ['light', 'dark'] as const) {
  test(`every page type passes axe in ${first.code}, ${theme}`, async ({ page }) => {
    test.slow();
    await page.emulateMedia({ colorScheme: theme });
    expect(await axeProblems(page, first.code, pageTypes)).toEqual([]);
  });
}

// …and every type once more in another language: each of the others takes its share of them, the themes taking turns.
others.forEach((locale, index) => {
  const share = pageTypes.filter((_, n) => n % others.length === index);
  const theme = index % 2 ? 'dark' : 'light';
  test(`${share.join(', ')} pass axe in ${locale.code}, ${theme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    expect(await axeProblems(page, locale.code, share)).toEqual([]);
  });
});
