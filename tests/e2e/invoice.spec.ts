/**
 * Invoices (issue 49, point 6), in the browser at 390 and 1440 px: a customer
 * asks for one on a paid order's page (as a company: the tax number appears
 * only then), an operator opens the request in the console's invoices area and
 * issues it with a PDF, and the customer is e-mailed, sees it issued on the
 * order's page and downloads the very file. Nothing sideways and no serious
 * axe finding on either page, in either theme. (Refusals, the period, refunds,
 * other users and every bad token are tests/integration/api/invoice.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { fitsInBothThemes } from './page-checks.ts';
import { signInToConsole } from './console-sign-in.ts';
import { localizePath, say } from './routes.ts';
import { outbox } from './session.ts';
import { smallPdf } from '../setup/small-pdf.ts';
import { paidPlan } from './paid-plan.ts';

/** A unified social credit code as published (Tencent's Shenzhen company). */
const taxNumber = '9144030071526726XG';

for (const width of [390, 1440]) {
  test(`at ${width} px: the customer asks on the order's page, the operator issues it in the console, the customer downloads it`, async ({
    page,
    browser,
  }, testInfo) => {
    test.slow();
    const size = { width, height: 900 };
    const customer: LocaleCode = 'ja';
    const operatorLocale: LocaleCode = 'ru';
    await page.setViewportSize(size);
    const { key } = await paidPlan(page, customer);
    const orderPage = `${localizePath(customer, '/account/center/order/detail')}?key=${key}`;
    const email = `invoice-${key}@example.com`;

    // The customer asks, as a company: the tax number shows only for one.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(orderPage);
    const section = page.locator('[data-invoice]');
    await expect(section.locator('[data-invoice-form]')).toBeVisible();
    await expect(section.locator('input[name="taxNumber"]')).toHaveCount(0);
    await section.getByRole('radio', { name: say(customer, 'account.invoice.company') }).check();
    await section.getByRole('textbox', { name: say(customer, 'account.invoice.title') }).fill('深圳市テスト有限公司');
    await section.getByRole('textbox', { name: say(customer, 'account.invoice.taxNumber') }).fill(taxNumber);
    await section.getByRole('textbox', { name: say(customer, 'account.invoice.email') }).fill(email);
    await fitsInBothThemes(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await section.screenshot({ path: testInfo.outputPath(`invoice-request-${customer}-${width}-light.png`) });
    await section.getByRole('button', { name: say(customer, 'account.invoice.submit') }).click();
    await expect(section).toHaveAttribute('data-invoice', 'requested');
    await expect(section).toContainText(say(customer, 'account.invoice.state.requested'));
    await expect(section).toContainText(taxNumber);

    // The operator, in a browser of their own, issues it with the PDF.
    const operatorContext = await browser.newContext({ viewport: size, colorScheme: 'dark' });
    const operator = await operatorContext.newPage();
    await signInToConsole(operator, 'support', operatorLocale);
    await operator.goto(localizePath(operatorLocale, '/admin/invoices'));
    await operator.locator(`[data-open-invoice="${key}"]`).click();
    const opened = operator.locator(`section[data-invoice="${key}"]`);
    await expect(opened).toContainText(taxNumber);
    await expect(opened).toContainText(email);
    await opened
      .getByLabel(say(operatorLocale, 'console.invoices.file'))
      .setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: smallPdf() });
    await opened.getByRole('button', { name: say(operatorLocale, 'console.invoices.issue') }).click();
    await expect(opened).toContainText(say(operatorLocale, 'console.invoices.issuedDone'));
    await expect(opened).toHaveAttribute('data-state', 'issued');
    await fitsInBothThemes(operator);
    await operator.emulateMedia({ colorScheme: 'dark' });
    await operator.evaluate(() => scrollTo(0, 0));
    await operator.screenshot({ path: testInfo.outputPath(`invoice-console-${operatorLocale}-${width}-dark.png`), fullPage: true });
    await operatorContext.close();

    // The customer is told, sees it issued and downloads the very file.
    await expect.poll(async () => (await outbox(page, email)).join('\n')).toContain(key);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(section).toHaveAttribute('data-invoice', 'issued');
    await expect(section).toContainText(say(customer, 'account.invoice.state.issued'));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: say(customer, 'account.invoice.download') }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`invoice-${key}.pdf`);
    expect(readFileSync(await download.path()).equals(smallPdf())).toBe(true);
    await fitsInBothThemes(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: testInfo.outputPath(`invoice-issued-order-page-${customer}-${width}-dark.png`), fullPage: true });
  });
}
