/**
 * The console's lists in a browser (issue 49, point 2), on a phone and on a
 * wide screen: an operator filters the orders by a customer, sorts them by
 * price, goes to page 2, and finds the same sort, page and filter after a
 * reload, in a new page opened on the shared URL, and back a step after the
 * browser's back button; the customers' list searched and sorted the same
 * way. Nothing sticks out sideways (the table scrolls inside its own box),
 * and axe finds nothing serious, in both themes.
 */
import { expect, test, type Page } from '@playwright/test';
import { commerceCalls } from '#contract/commerce.ts';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { signInToConsole } from './console-sign-in.ts';
import { fitsInBothThemes } from './page-checks.ts';
import { localizePath, say } from './routes.ts';
import { newPhone, registerFresh, sealedCall } from './session.ts';

const sizes = [
  { width: 390, height: 844, locale: 'ru' as LocaleCode, theme: 'dark' as const },
  { width: 1440, height: 900, locale: 'ja' as LocaleCode, theme: 'light' as const },
];

const looksRight = (page: Page, axeTheme: 'light' | 'dark') => fitsInBothThemes(page, { axeIn: [axeTheme] });

for (const size of sizes) {
  test(`orders and customers sort, page and filter, kept in the URL (${size.width} px, ${size.locale})`, async ({ page, context }, testInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const t = (key: string, params: Record<string, string> = {}) => say(size.locale, key, params);
    // A customer with seven orders of ¥10 to ¥40, newest the dearest.
    const phone = newPhone();
    const customer = await registerFresh(page, phone);
    const keys: string[] = [];
    for (let i = 0; i < 7; i++) {
      const order = await sealedCall(
        page,
        commerceCalls.createOrder,
        { Product: 'steam-cn', Amount: 1000 + i * 500, Target: '12345678' },
        customer.AccessToken,
      );
      keys.push(order.Key);
    }
    await signInToConsole(page, 'support', size.locale);

    // Five a page (the size is kept in the URL like the rest), the customer's orders only.
    await page.goto(`${localizePath(size.locale, '/admin/orders')}?size=5`);
    const table = page.locator('[data-table="orders"]');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await page.locator('[data-filter] input[name="user"]').fill(phone);
    await page
      .locator('[data-filter]')
      .getByRole('button', { name: t('console.orders.filter') })
      .click();
    await expect(page).toHaveURL(new RegExp(`user=${encodeURIComponent(phone).replace('+', '\\+')}`));
    await expect(table.locator('[data-range]')).toHaveText(t('console.table.range', { from: '1', to: '5', total: '7' }));

    // By price, dearest first (a price's first click), then the second page: the two cheapest.
    const priceHeader = table.locator('th', { has: page.locator('[data-sort="price"]') });
    await priceHeader.getByRole('button').click();
    await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(table.locator('tbody tr').first()).toContainText(keys[6]);
    await table.getByRole('button', { name: t('common.next') }).click();
    await expect(table.locator('[data-range]')).toHaveText(t('console.table.range', { from: '6', to: '7', total: '7' }));
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(table.locator('tbody tr').nth(0)).toContainText(keys[1]);
    await expect(table.locator('tbody tr').nth(1)).toContainText(keys[0]);
    const shared = page.url();
    expect(new URL(shared).searchParams.get('sort')).toBe('price');
    expect(new URL(shared).searchParams.get('page')).toBe('2');
    // The sort buttons are reached by the keyboard.
    await priceHeader.getByRole('button').focus();
    await expect(priceHeader.getByRole('button')).toBeFocused();
    await looksRight(page, size.theme);
    if (size.width === 1440) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: testInfo.outputPath('table-orders-ja-1440-light-sorted-page2.png'), fullPage: true });
    }

    // A reload shows the same sort, page and filter.
    await page.reload();
    await expect(table.locator('[data-range]')).toHaveText(t('console.table.range', { from: '6', to: '7', total: '7' }));
    await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(page.locator('[data-filter] input[name="user"]')).toHaveValue(phone);
    await expect(table.locator('tbody tr').nth(0)).toContainText(keys[1]);

    // The link opened in a new page shows what its sender saw.
    const other = await context.newPage();
    await other.setViewportSize({ width: size.width, height: size.height });
    await other.goto(shared);
    const otherTable = other.locator('[data-table="orders"]');
    await expect(otherTable.locator('[data-range]')).toHaveText(t('console.table.range', { from: '6', to: '7', total: '7' }));
    await expect(otherTable.locator('th[aria-sort="descending"]')).toContainText(t('console.orders.price'));
    await expect(otherTable.locator('tbody tr').nth(1)).toContainText(keys[0]);
    await other.close();

    // Back goes to the first page of the same sort.
    await page.goBack();
    await expect(page).not.toHaveURL(/page=2/);
    await expect(table.locator('[data-range]')).toHaveText(t('console.table.range', { from: '1', to: '5', total: '7' }));
    await expect(table.locator('tbody tr').first()).toContainText(keys[6]);

    // Customers: found by the start of their phone, sorted by nickname, and the search kept in the URL.
    await page.goto(localizePath(size.locale, '/admin/customers'));
    const customers = page.locator('[data-table="customers"]');
    await expect(customers.locator('tbody tr').first()).toBeVisible();
    await page.locator('[data-filter] input[name="search"]').fill(phone);
    await page
      .locator('[data-filter]')
      .getByRole('button', { name: t('console.orders.filter') })
      .click();
    await expect(customers.locator('[data-range]')).toHaveText(t('console.table.range', { from: '1', to: '1', total: '1' }));
    await expect(customers.locator('tbody tr')).toContainText(String(customer.User.Id));
    await customers.locator('[data-sort="nickname"]').click();
    await expect(page).toHaveURL(/sort=nickname/);
    await page.reload();
    await expect(page.locator('[data-filter] input[name="search"]')).toHaveValue(phone);
    await expect(customers.locator('th[aria-sort="ascending"]')).toContainText(t('console.customers.nickname'));
    await expect(customers.locator('tbody tr')).toHaveCount(1);
    // Every customer again, newest first: the table scrolls inside its box on a phone.
    await page.goto(localizePath(size.locale, '/admin/customers'));
    await expect(customers.locator('tbody tr').first()).toBeVisible();
    await looksRight(page, size.theme);
    if (size.width === 390) {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: testInfo.outputPath('table-customers-ru-390-dark.png'), fullPage: true });
    }
  });
}
