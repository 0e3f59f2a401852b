/** Redeeming cdkeys in a real browser: a key from the operators' command, the balance it adds, each refusal, and the history. */
import { expect, test } from '@playwright/test';
import { checkCharacter, formatCdkey } from '#contract/cdkey-format.ts';
import { newCdkeys } from './admin-cli.ts';
import { localizePath, say, serverSays } from './routes.ts';
import { signInAsDemo } from './session.ts';

for (const locale of ['en', 'zh-CN', 'ru'] as const) {
  test(`${locale}: a cdkey is redeemed, adds to the wallet and is listed; a typo, a used, an unknown and an expired key are refused`, async ({ page }) => {
    const keys = await newCdkeys(`e2e-${locale.toLowerCase()}`, 'wallet:1500');
    expect(keys).toHaveLength(1);
    const [key] = keys as [string];
    await page.goto(localizePath(locale, '/'));
    await signInAsDemo(page);
    await page.goto(localizePath(locale, '/activate/cdkey'));
    const input = page.getByLabel(say(locale, 'activate.cdkey.label'), { exact: true });
    const submit = page.getByRole('button', { name: say(locale, 'activate.cdkey.submit') });

    // A typo is caught in the browser.
    const typo = key.slice(0, 3) + (key[3] === 'A' ? 'B' : 'A') + key.slice(4);
    await input.fill(typo);
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText(say(locale, 'activate.cdkey.typo'));

    // Typed in small letters without hyphens, it is grouped as it goes.
    await input.fill(key.replaceAll('-', '').toLowerCase());
    await expect(input).toHaveValue(key);
    await submit.click();
    await expect(page.locator('[data-redeemed]')).toBeVisible();

    // Used now, and a well-formed key that was never made: the server says which, in the page's language.
    await input.fill(key);
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText(serverSays(locale, 'cdkeyUsed'));
    const body = '2222222222222222222';
    await input.fill(formatCdkey(body + checkCharacter(body)));
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText(serverSays(locale, 'cdkeyUnknown'));
    // A key of a batch past its expiry.
    const [expired] = await newCdkeys(`e2e-expired-${locale.toLowerCase()}`, 'wallet:100', 1, '--expires', '2026-01-01', '--force');
    await input.fill(expired);
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText(serverSays(locale, 'cdkeyExpired'));

    await page.goto(localizePath(locale, '/account/center/redemption'));
    // The demo account redeems in the other locales' tests too: find this key among them.
    await expect(page.locator('[data-redemptions] li').filter({ hasText: key.slice(0, 5) })).toBeVisible();
    await page.goto(localizePath(locale, '/account/center/wallet'));
    await expect(page.locator('[data-ledger]')).toContainText(say(locale, 'account.wallet.reason.cdkey'));
  });
}
