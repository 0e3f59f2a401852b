/**
 * Donating in a real browser: wallet balance from a cdkey, a named donation
 * confirmed, the new balance, and the name on /sponsor; and the donation,
 * sponsor and /bindorder pages passing axe and fitting a phone.
 */
import { expect, test } from '@playwright/test';
import { activationCalls } from '#contract/activation.ts';
import { formatPrice } from '#contract/facts.ts';
import { donationCalls } from '#contract/donation.ts';
import { newCdkeys } from './admin-cli.ts';
import { pageProblems } from './page-checks.ts';
import { localizePath, say } from './routes.ts';
import { sealedCall, signInFresh } from './session.ts';

for (const locale of ['en', 'zh-CN', 'ru'] as const) {
  test(`${locale}: a donation with a name takes it from the wallet and thanks the donor on the sponsor page`, async ({ page }) => {
    await page.goto(localizePath(locale, '/'));
    const { auth } = await signInFresh(page);
    const [key] = await newCdkeys(`e2e-donation-${locale.toLowerCase()}`, 'wallet:2000');
    await sealedCall(page, activationCalls.redeem, { Key: key }, auth.AccessToken);
    const name = `Donor ${locale} ${Date.now() % 1_000_000}`;

    await page.goto(localizePath(locale, '/account/center/redemption/donate'));
    await expect(page.locator('[data-balance]')).toHaveText(formatPrice(2000, locale));
    await page.getByRole('radio', { name: formatPrice(1800, locale) }).check();
    await page.getByRole('checkbox', { name: say(locale, 'account.donate.showName') }).check();
    await page.getByRole('textbox', { name: say(locale, 'account.donate.name') }).fill(name);
    await page.getByRole('button', { name: say(locale, 'account.donate.submit', { amount: formatPrice(1800, locale) }) }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(say(locale, 'account.donate.confirm', { amount: formatPrice(1800, locale) }));
    await dialog.getByRole('button', { name: say(locale, 'account.donate.confirmYes') }).click();
    await expect(page.getByRole('status').filter({ hasText: say(locale, 'account.donate.thanks') })).toBeVisible();
    await expect(page.locator('[data-balance]')).toHaveText(formatPrice(200, locale));
    await expect(page.locator('[data-donations]')).toContainText(name);

    // More than the balance is refused before the server is asked.
    await page.getByRole('radio', { name: formatPrice(600, locale) }).check();
    await page.getByRole('button', { name: say(locale, 'account.donate.submit', { amount: formatPrice(600, locale) }) }).click();
    await expect(page.getByRole('alert')).toHaveText(say(locale, 'account.donate.notEnough'));

    await page.goto(localizePath(locale, '/sponsor'));
    await expect(page.locator('[data-sponsors] li').filter({ hasText: name })).toBeVisible();
  });
}

for (const locale of ['ja', 'ru'] as const) {
  test(`${locale}: the donation, sponsor and bindorder pages pass axe and fit 320 px, light and dark`, async ({ page }) => {
    test.slow();
    await page.goto(localizePath(locale, '/'));
    const { auth } = await signInFresh(page);
    const [key] = await newCdkeys(`e2e-donation-pages-${locale.toLowerCase()}`, 'wallet:1000');
    await sealedCall(page, activationCalls.redeem, { Key: key }, auth.AccessToken);
    await sealedCall(page, donationCalls.donate, { Amount: 100, Name: `Axe ${locale}` }, auth.AccessToken);
    const problems = await pageProblems(page, [
      { url: localizePath(locale, '/account/center/redemption/donate'), ready: '[data-donations]' },
      { url: localizePath(locale, '/sponsor'), ready: '[data-sponsors] li' },
      { url: `${localizePath(locale, '/bindorder')}?order=20261124000000000001&expires=9999999999&sig=forged`, ready: '[data-bind]' },
    ]);
    expect(problems).toEqual([]);
  });
}
