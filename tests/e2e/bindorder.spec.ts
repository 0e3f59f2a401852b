/**
 * /bindorder in a real browser: an order the desktop client made
 * (scripts/desktop-order.ts) is linked by whoever opens its link logged in —
 * after logging in and coming back, if need be — and a forged link is refused.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { localizePath, say, serverSays } from './routes.ts';
import { signInFresh } from './session.ts';

/** A new order from the desktop client, in `lang`: its number and its /bindorder link. */
async function desktopOrder(baseURL: string, lang: string): Promise<{ order: string; link: URL }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/desktop-order.ts', '--url', baseURL, '--lang', lang]);
  const link = new URL(/^Open: (\S+)$/m.exec(stdout)![1]);
  return { order: link.searchParams.get('order')!, link };
}

const bindButton = (page: Page, locale: 'en' | 'zh-CN' | 'ru') => page.getByRole('button', { name: say(locale, 'bindorder.bind') });

for (const locale of ['en', 'zh-CN', 'ru'] as const) {
  test(`${locale}: an order from the desktop app is linked after login, and can be paid`, async ({ page, baseURL }) => {
    const { order, link } = await desktopOrder(baseURL!, locale);
    expect(link.pathname).toBe(localizePath(locale, '/bindorder'));

    // Logged out: login, which comes back to the very link.
    await page.goto(link.pathname + link.search);
    await page.getByRole('link', { name: say(locale, 'nav.login') }).click();
    await page.waitForURL(/\/account\/login\?redirectUrl=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('redirectUrl')!)).toBe(link.pathname + link.search);

    await signInFresh(page);
    await page.goto(link.pathname + link.search);
    await expect(page.getByText(order, { exact: false }).first()).toBeVisible();
    await bindButton(page, locale).click();
    await expect(page.getByRole('status')).toHaveText(say(locale, 'bindorder.done', { order }));
    await page.getByRole('link', { name: say(locale, 'bindorder.pay') }).click();
    await page.waitForURL(new RegExp(`/payment\\?key=${order}`));

    // The link is spent.
    await page.goto(link.pathname + link.search);
    await bindButton(page, locale).click();
    await expect(page.getByRole('alert')).toHaveText(serverSays(locale, 'bindLinkUsed'));
  });

  test(`${locale}: a forged link is refused`, async ({ page, baseURL }) => {
    const { link } = await desktopOrder(baseURL!, locale);
    const sig = link.searchParams.get('sig')!;
    link.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    await page.goto(localizePath(locale, '/'));
    await signInFresh(page);
    await page.goto(link.pathname + link.search);
    await bindButton(page, locale).click();
    await expect(page.getByRole('alert')).toHaveText(serverSays(locale, 'bindLinkInvalid'));
  });
}
