import { expect, test } from '@playwright/test';
import { seriousAxeProblems } from './axe.ts';
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

for (const locale of locales) {
  for (const theme of ['light', 'dark'] as const) {
    test(`every page type passes axe in ${locale.code}, ${theme}`, async ({ page }) => {
      test.slow();
      await page.emulateMedia({ colorScheme: theme });
      await signInAsDemo(page);
      const problems: string[] = [];
      for (const path of pageTypes) {
        const url = localizePath(locale.code, path);
        await page.goto(url, { waitUntil: 'load' });
        problems.push(...(await seriousAxeProblems(page)));
      }
      expect(problems).toEqual([]);
    });
  }
}
