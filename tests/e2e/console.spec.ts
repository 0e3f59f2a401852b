/**
 * The operators' console in a browser, on a phone and on a wide screen: a
 * customer given a role at the shell sets up an authenticator after a code to
 * their own phone (the test reads it from the outbox, then reads the key off
 * the page and makes the code, as an app would), keeps the recovery codes,
 * finds a customer by phone, opens their order and refunds it after
 * confirming, signs out, signs in again with a recovery code, and after
 * wrong codes sees the sign-in locked until when, until an admin unlocks it.
 * Each area is checked for sideways overflow and serious axe findings, in
 * both themes; the refund is in the audit log under the operator's name.
 */
import { expect, test, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { activationCalls } from '#contract/activation.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { pathOf } from '#contract/api.ts';
import { pluginCalls } from '#contract/plugins.ts';
import { raffleCalls } from '#contract/raffle.ts';
import sharp from 'sharp';
import { localeCodes } from '#contract/locales.ts';
import type { LocaleCode } from '../../src/i18n/locales.ts';
import { admin, newCdkeys } from './admin-cli.ts';
import { consoleMenu, signInToConsole } from './console-sign-in.ts';
import { fitsInBothThemes, themeTaken } from './page-checks.ts';
import { localizePath, say, serverSays } from './routes.ts';
import { codeSentBy, keep, newPhone, outbox, registerFresh, sealedCall } from './session.ts';

const sizes = [
  { name: 'phone', viewport: { width: 390, height: 844 }, locale: 'en' as LocaleCode, axeTheme: 'light' as const },
  { name: 'wide screen', viewport: { width: 1440, height: 900 }, locale: 'zh-CN' as LocaleCode, axeTheme: 'dark' as const },
];

/**
 * Nothing sticks out sideways, in the light theme and the dark one, and axe
 * finds nothing serious in `axeTheme`. Each test passes the theme its size
 * checks with axe, so every page is checked in both themes across the two
 * sizes while each axe run (the slow part) happens once per page and size.
 */
const looksRight = (page: Page, axeTheme: 'light' | 'dark') => fitsInBothThemes(page, { axeIn: [axeTheme], inTheme: themeTaken(page) });

/**
 * A registration raffle made at the shell, opening `opensInDays` from now; answers its id. It closes long after every
 * other open raffle, so it is never the "current" one other tests' pages show.
 */
async function shellRaffle(title: string, opensInDays: number): Promise<number> {
  const everywhere = (text: string) => Object.fromEntries(localeCodes.map((code) => [code, `${text} (${code})`]));
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  const definition = {
    Kind: 'registration',
    Title: everywhere(title),
    Description: everywhere('Made at the shell'),
    Prizes: [{ Name: everywhere('CN¥5'), Quantity: 1, Grant: { Kind: 'wallet', Amount: 500 } }],
    OpensAt: inDays(opensInDays),
    ClosesAt: inDays(400),
    DrawAt: inDays(401),
    PublicSource: everywhere('The next lottery draw'),
  };
  return (JSON.parse(await admin('raffle', 'create', '--definition', JSON.stringify(definition), '--json')) as { raffle: { id: number } }).raffle.id;
}

/** A customer with a paid order of ¥50 from their wallet (credited by a cdkey). */
async function customerWithOrder(page: Page, batch: string) {
  const phone = newPhone();
  const login = await registerFresh(page, phone);
  const [credit] = await newCdkeys(batch, 'wallet:10000');
  await sealedCall(page, activationCalls.redeem, { Key: credit }, login.AccessToken);
  const order = await sealedCall(page, commerceCalls.createOrder, { Product: 'steam-cn', Amount: 5000, Target: '12345678' }, login.AccessToken);
  await sealedCall(page, { ...commerceCalls.pay, path: pathOf(commerceCalls.pay.path, { key: order.Key }) }, { Method: 'wallet' }, login.AccessToken);
  return { phone, key: order.Key };
}

/**
 * A review written and reported by two new accounts, on a plugin no other
 * browser test rates (hiding it changes that plugin's rating, and the server is shared); answers its id.
 */
async function reportedReview(page: Page): Promise<number> {
  const slug = 'library-cleaner';
  const writer = await registerFresh(page);
  const saved = await page.request.post(`/api${pathOf(pluginCalls.save.path, { slug })}`, {
    headers: { authorization: `Bearer ${writer.AccessToken}` },
    data: { Rating: 1, Text: 'Cheap keys at another shop, message me' },
  });
  const id = ((await saved.json()) as { data: { Own: { Evaluation: { Id: number } } } }).data.Own.Evaluation.Id;
  const reporter = await registerFresh(page);
  const reported = await page.request.post(`/api${pathOf(pluginCalls.report.path, { id })}`, {
    headers: { authorization: `Bearer ${reporter.AccessToken}` },
    data: { Reason: 'spam' },
  });
  expect(reported.ok()).toBe(true);
  return id;
}

for (const size of sizes) {
  test(`an operator sets up the console, finds a customer and refunds their order, on a ${size.name}`, async ({ page }) => {
    test.slow();
    await page.setViewportSize(size.viewport);
    const t = (key: string, params?: Record<string, string>) => say(size.locale, key, params);
    const customer = await customerWithOrder(page, `console-${size.name.replace(' ', '-')}-${Date.now()}`);
    const phone = newPhone();
    const operator = await registerFresh(page, phone);
    await admin('role', 'grant', String(operator.User.Id), 'support');
    await keep(page, operator);

    // Setting up: first a code to the operator's own phone, shown masked; then the key on the page makes the codes the app would show.
    await page.goto(localizePath(size.locale, '/admin'));
    await expect(page.getByRole('heading', { name: t('console.enrol.title') })).toBeVisible();
    await expect(page.getByText(t('console.enrol.sendIntro', { to: `${phone.slice(0, 3)}****${phone.slice(-4)}` }))).toBeVisible();
    await looksRight(page, size.axeTheme);
    const sent = await codeSentBy(page, phone, () => page.getByRole('button', { name: t('console.enrol.send') }).click());
    await page.getByLabel(t('console.enrol.ownCode')).fill(sent === '000000' ? '000001' : '000000');
    await page.getByRole('button', { name: t('console.signIn.submit') }).click();
    await expect(page.locator('.notice-error')).toBeVisible();
    await expect(page.locator('[data-totp-secret]')).toHaveCount(0);
    await looksRight(page, size.axeTheme);
    await page.getByLabel(t('console.enrol.ownCode')).fill(sent);
    await page.getByRole('button', { name: t('console.signIn.submit') }).click();
    const secret = (await page.locator('[data-totp-secret]').innerText()).replaceAll(' ', '');
    await page.getByLabel(t('console.enrol.code')).fill(await generate({ secret }));
    await page.getByRole('button', { name: t('console.signIn.submit') }).click();
    const codes = page.locator('[data-recovery-codes] li');
    await expect(codes).toHaveCount(10);
    const recovery = await codes.nth(4).innerText();
    await looksRight(page, size.axeTheme);
    await page.getByRole('button', { name: t('console.recovery.kept') }).click();
    await expect(page.locator('[data-console-who]')).toContainText(t('console.role.support'));

    // Customers: found by phone, with the wallet and the order.
    await (await consoleMenu(page)).getByRole('link', { name: t('console.nav.customers'), exact: true }).click();
    await page.getByLabel(t('console.customers.find')).fill(customer.phone);
    await page.getByRole('button', { name: t('console.customers.search') }).click();
    await expect(page.locator('[data-balance]')).toBeVisible();
    await expect(page.locator('[data-orders]')).toContainText(customer.key);
    await expect(page.locator('[data-logins] li')).not.toHaveCount(0);
    // The cdkey that credited the wallet, among what else the customer has.
    await expect(page.locator('[data-redemptions] li')).toHaveCount(1);
    await looksRight(page, size.axeTheme);

    // Orders: opened from the customer, refunded after the confirmation, to the wallet.
    await page.locator('[data-orders]').getByRole('link', { name: customer.key }).click();
    await expect(page.locator('[data-order-state]')).toHaveAttribute('data-order-state', 'paid');
    await looksRight(page, size.axeTheme);
    await page.getByRole('button', { name: t('console.orders.refund'), exact: true }).click();
    await expect(page.getByRole('dialog')).toContainText(customer.key);
    await page.locator('[data-confirm-step="refund"]').click();
    await expect(page.locator('[data-order-state]')).toHaveAttribute('data-order-state', 'refunded');
    await expect(page.getByText(t('console.orders.refunded'))).toBeVisible();
    expect(await admin('audit', 'list', '--action', 'order refund')).toMatch(new RegExp(`\\(user ${operator.User.Id}, support\\).*order ${customer.key}`));

    // Signing out ends the console session; a recovery code opens a new one (the app's code was just used).
    await (await consoleMenu(page)).getByRole('button', { name: t('console.signOut') }).click();
    await expect(page.getByRole('heading', { name: t('console.signIn.title') })).toBeVisible();
    await page.getByLabel(t('console.signIn.code')).fill(recovery);
    await page.getByRole('button', { name: t('console.signIn.submit') }).click();
    // On a phone, who is signed in is in the menu, behind its button.
    await expect(page.locator('[data-console-who]')).toBeAttached();

    // Wrong codes in a row lock the sign-in: the page says until when, and an admin's unlock lets the operator try again.
    await (await consoleMenu(page)).getByRole('button', { name: t('console.signOut') }).click();
    for (let i = 0; i < 5; i++) {
      await page.getByLabel(t('console.signIn.code')).fill(`WRONG-CODE-${i}-XXXX-XXXX`);
      await page.getByRole('button', { name: t('console.signIn.submit') }).click();
      await expect(page.locator('.notice-error, [data-console-locked]').first()).toBeVisible();
    }
    await expect(page.locator('[data-console-locked]')).toContainText(t('console.locked.title'));
    await expect(page.locator('[data-console-locked] .notice')).toContainText(/\d/);
    await looksRight(page, size.axeTheme);
    expect(await admin('role', 'unlock', String(operator.User.Id))).toContain('may sign in to the console again');
    await page.getByRole('button', { name: t('console.locked.retry') }).click();
    await expect(page.getByRole('heading', { name: t('console.signIn.title') })).toBeVisible();
  });
}

const staffSizes = [
  { name: 'phone', viewport: { width: 390, height: 844 }, locale: 'ja' as LocaleCode, axeTheme: 'dark' as const },
  { name: 'wide screen', viewport: { width: 1440, height: 900 }, locale: 'ru' as LocaleCode, axeTheme: 'light' as const },
];

for (const size of staffSizes) {
  test(`an admin makes cdkeys and a raffle, moderates a review, sets the status board, reads and downloads the audit log, gives a role and signs a device out, on a ${size.name}`, async ({
    page,
  }) => {
    test.slow();
    await page.setViewportSize(size.viewport);
    const t = (key: string, params?: Record<string, string>) => say(size.locale, key, params);
    const adminId = await signInToConsole(page, 'admin', size.locale);
    // The console's first page is the dashboard (console-dashboard.spec.ts).
    await expect(page.locator('[data-dashboard="7"]')).toBeVisible();

    // cdkeys: a batch of two made and shown, one key checked and revoked after a confirmation.
    await page.goto(localizePath(size.locale, '/admin/cdkeys'));
    const batch = `e2e-${size.name.replace(' ', '-')}-${Date.now()}`;
    // Issue 47, point 5: the browser's own checks of a field say the generic form messages, naming the field, in the page's language.
    const name = page.getByLabel(t('console.cdkeys.name')).first();
    const browserSays = () => name.evaluate((input: HTMLInputElement) => input.validationMessage);
    await page.getByRole('button', { name: t('console.cdkeys.create') }).click();
    expect(await browserSays()).toBe(t('messages.fieldRequired', { field: t('console.cdkeys.name') }));
    await name.fill('Not a batch name');
    await page.getByRole('button', { name: t('console.cdkeys.create') }).click();
    expect(await browserSays()).toBe(t('messages.fieldInvalid', { field: t('console.cdkeys.name') }));
    await name.fill(batch);
    await page.getByLabel(t('console.cdkeys.count')).fill('2');
    await page.getByLabel(t('console.cdkeys.amountYuan')).fill('5');
    await page.getByRole('button', { name: t('console.cdkeys.create') }).click();
    const keys = (await page.locator('[data-keys]').inputValue()).split('\n');
    expect(keys).toHaveLength(2);
    await looksRight(page, size.axeTheme);
    await page.locator('input[name="key"]').fill(keys[1]);
    await page.getByRole('button', { name: t('console.cdkeys.check'), exact: true }).click();
    await expect(page.locator('[data-key-state]')).toHaveAttribute('data-key-state', 'unused');
    await page
      .getByRole('button', { name: t('console.cdkeys.revokeKey') })
      .first()
      .click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('console.cdkeys.revokeKey') })
      .click();
    await expect(page.locator('[data-key-state]')).toHaveAttribute('data-key-state', 'revoked');
    expect(await admin('cdkey', 'show', batch)).toContain('1 revoked');

    // Raffles: one made from its definition with a cover, opened early, closed, its value entered and drawn.
    await page.goto(localizePath(size.locale, '/admin/raffles'));
    const everywhere = (text: string) => Object.fromEntries(localeCodes.map((code) => [code, `${text} (${code})`]));
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const title = `E2E ${size.name} ${Date.now()}`;
    const definition = {
      Kind: 'registration',
      Title: everywhere(title),
      Description: everywhere('Made in the console'),
      Prizes: [{ Name: everywhere('CN¥5'), Quantity: 1, Grant: { Kind: 'wallet', Amount: 500 } }],
      // Closing long after every other open raffle, it is never the "current" one other tests' pages show.
      OpensAt: inDays(1),
      ClosesAt: inDays(400),
      DrawAt: inDays(401),
      PublicSource: everywhere('The next lottery draw'),
    };
    await page.getByLabel(t('console.raffles.definition')).fill(JSON.stringify(definition));
    const cover = await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#2255aa' } })
      .png()
      .toBuffer();
    await page.getByLabel(t('console.raffles.cover')).setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: cover });
    await page.getByRole('button', { name: t('console.raffles.create') }).click();
    const made = page.locator('[data-raffle]');
    await expect(made).toHaveAttribute('data-raffle-state', 'upcoming');
    // Issue 49, point 4: the raffle's title in the console's language.
    await expect(made.getByRole('heading')).toContainText(`${title} (${size.locale})`);
    await looksRight(page, size.axeTheme);
    await made.getByRole('button', { name: t('console.raffles.open') }).click();
    await expect(made).toHaveAttribute('data-raffle-state', 'open');
    await made.getByRole('button', { name: t('console.raffles.close') }).click();
    await page.locator('[data-confirm-raffle="close"]').click();
    await expect(made).toHaveAttribute('data-raffle-state', 'closed');
    await made.getByLabel(t('console.raffles.enterValue')).fill('2026-12-03: 01 02 03');
    await made.getByRole('button', { name: t('console.raffles.save') }).click();
    await expect(page.getByText(t('console.raffles.valueSet'))).toBeVisible();
    await made.getByRole('button', { name: t('console.raffles.draw') }).click();
    await page.locator('[data-confirm-raffle="draw"]').click();
    await expect(made).toHaveAttribute('data-raffle-state', 'drawn');

    // Reviews: one reported for this test, hidden with a reason, then shown again.
    const reviewId = await reportedReview(page);
    // Newest first: the review just reported is on the first page; opened from the table.
    await page.goto(`${localizePath(size.locale, '/admin/reviews')}?sort=created`);
    await page
      .locator('[data-table="reviews"]')
      .getByRole('button', { name: `library-cleaner #${reviewId}` })
      .click();
    const review = page.locator(`[data-review="${reviewId}"]`);
    await expect(review).toBeVisible();
    await looksRight(page, size.axeTheme);
    await review.getByLabel(t('console.reviews.reason')).fill('Off-topic advertising');
    await review.getByRole('button', { name: t('console.reviews.hide') }).click();
    await expect(review).toHaveAttribute('data-hidden', 'true');
    await review.getByRole('button', { name: t('console.reviews.show') }).click();
    await expect(review).toHaveAttribute('data-hidden', 'false');

    // Status: a note in the page's language on one service; payments paused, then opened, each after a confirmation.
    await page.goto(localizePath(size.locale, '/admin/status'));
    const service = page.locator('[data-service="github"]');
    await expect(service).toBeVisible();
    await looksRight(page, size.axeTheme);
    await service.locator('select').selectOption('degraded');
    await service.locator('summary').click();
    await service.locator(`input[name="note-${size.locale}"]`).fill('E2E');
    await service.getByRole('button', { name: t('console.status.save') }).click();
    await expect(page.getByText(t('console.status.saved'))).toBeVisible();
    // Maintenance pauses every payment on the server the browser tests share: here it is asked and cancelled;
    // server-wide.spec.ts turns it on and off, after every other test.
    await page.getByRole('button', { name: t('console.status.turnOn') }).click();
    await expect(page.getByRole('dialog')).toContainText(t('console.status.confirmOn'));
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('console.orders.cancel') })
      .click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.locator('[data-maintenance]')).toHaveAttribute('data-maintenance', 'false');
    await admin('status', 'set', 'github', 'up');

    // The audit log: every one of those changes under this admin's name; all of it as CSV; a role given after a confirmation.
    await page.goto(localizePath(size.locale, '/admin/audit'));
    await expect(page.locator('[data-table="audit"] tbody tr').first()).toBeVisible();
    await looksRight(page, size.axeTheme);
    // Issue 49, point 4: actions and records in words of the page's language, found by them.
    await page.locator('select[name="kind"]').selectOption(t('console.audit.kind.review'));
    await page.getByLabel(t('console.audit.recordId')).fill(String(reviewId));
    await page.getByRole('button', { name: t('console.audit.find') }).click();
    // The other screen size's test may act on the same review: this admin's two lines are the ones to find.
    const mine = page.locator('[data-table="audit"] tbody tr', { hasText: `(user ${adminId}, admin)` });
    await expect(mine).toHaveCount(2);
    const reviewRecord = `${t('console.audit.kind.review')} ${reviewId}`;
    await expect(mine.filter({ hasText: t('console.audit.action.evaluationHide') }).filter({ hasText: reviewRecord })).toHaveCount(1);
    await expect(mine.filter({ hasText: t('console.audit.action.evaluationUnhide') }).filter({ hasText: reviewRecord })).toHaveCount(1);
    await expect(page.locator('[data-table="audit"]')).toContainText('Off-topic advertising');
    const download = page.waitForEvent('download');
    await page.locator('[data-audit-export]').click();
    const csv = await (await download).path().then((file) => import('node:fs').then((fs) => fs.readFileSync(file, 'utf8')));
    expect(csv.split('\n')[0]).toBe('id,at,actor,actorUserId,address,action,target,before,after');
    expect(csv).toContain(`(user ${adminId}, admin)`);
    const colleague = await registerFresh(page);
    await page.getByLabel(t('console.audit.user')).fill(String(colleague.User.Id));
    await page.locator('select[name="role"]').selectOption('support');
    await page.getByRole('button', { name: t('console.audit.grant'), exact: true }).click();
    await page.locator('[data-confirm-role]').click();
    await expect(page.locator(`[data-operator="${colleague.User.Id}"]`)).toContainText(t('console.role.support'));

    // The colleague's device signed out from their customer page, after a confirmation.
    await page.goto(`${localizePath(size.locale, '/admin/customers')}?q=${colleague.User.Id}`);
    await page.locator('form[role=search] button').click();
    await expect(page.locator('[data-sessions] li')).toHaveCount(1);
    await page
      .locator('[data-sessions]')
      .getByRole('button', { name: t('console.customers.endSession') })
      .click();
    await page.locator('[data-confirm-end-session]').click();
    await expect(page.getByText(t('console.customers.sessionEnded'))).toBeVisible();
    await expect(page.locator('[data-sessions]')).toHaveCount(0);
  });
}

// Issue 49, point 4: an operator whose console is in Russian reads it all in Russian, on a phone and a wide screen.
for (const size of [
  { name: 'phone', viewport: { width: 390, height: 844 }, axeTheme: 'light' as const },
  { name: 'wide screen', viewport: { width: 1440, height: 900 }, axeTheme: 'dark' as const },
]) {
  test(`a Russian console names raffles, refusals, audit actions and records in Russian, on a ${size.name}`, async ({ page }) => {
    await page.setViewportSize(size.viewport);
    const t = (key: string, params?: Record<string, string>) => say('ru', key, params);
    await signInToConsole(page, 'admin', 'ru');
    const title = `E2E ru ${size.name} ${Date.now()}`;
    await shellRaffle(title, 1);

    // The raffle by its Russian title, in the list and shown; opened; a draw without a public value refused in Russian.
    await page.goto(localizePath('ru', '/admin/raffles'));
    await page.getByRole('button', { name: `${title} (ru)` }).click();
    const shown = page.locator('[data-raffle]');
    await expect(shown.getByRole('heading')).toContainText(`${title} (ru)`);
    await expect(shown).toContainText(t('console.raffles.stateName.upcoming'));
    const id = await shown.getAttribute('data-raffle');
    await shown.getByRole('button', { name: t('console.raffles.open') }).click();
    await expect(shown).toHaveAttribute('data-raffle-state', 'open');
    await shown.getByRole('button', { name: t('console.raffles.draw') }).click();
    await page.locator('[data-confirm-raffle="draw"]').click();
    await expect(page.getByRole('alert')).toHaveText(t('console.raffles.refused', { reason: serverSays('ru', 'refused.raffleNoPublicValue') }));
    await looksRight(page, size.axeTheme);

    // The audit log: the opening as Russian words, the raffle's id as it is; found by them.
    await page.goto(localizePath('ru', '/admin/audit'));
    await expect(page.locator('[data-table="audit"] [data-action="console sign-in"]').first()).toContainText(t('console.audit.action.consoleSignIn'));
    await page.locator('select[name="action"]').selectOption(t('console.audit.action.raffleOpen'));
    await page.locator('select[name="kind"]').selectOption(t('console.audit.kind.raffle'));
    await page.getByLabel(t('console.audit.recordId')).fill(id!);
    await page.getByRole('button', { name: t('console.audit.find') }).click();
    await expect(page.locator('[data-table="audit"] tbody tr')).toHaveCount(1);
    await expect(page.locator('[data-table="audit"] tbody tr')).toContainText(t('console.audit.action.raffleOpen'));
    await expect(page.locator('[data-table="audit"] tbody tr')).toContainText(`${t('console.audit.kind.raffle')} ${id}`);
    await looksRight(page, size.axeTheme);
  });
}

for (const size of [
  { name: 'phone', locale: 'ja' as const, viewport: { width: 390, height: 844 }, axeTheme: 'light' as const },
  { name: 'wide screen', locale: 'ru' as const, viewport: { width: 1440, height: 900 }, axeTheme: 'dark' as const },
]) {
  test(`a drawn raffle shows how many winners were told, reminded and claimed, and an operator sends a winner's message again (${size.locale}, ${size.name})`, async ({
    page,
  }) => {
    await page.setViewportSize(size.viewport);
    const t = (key: string, params?: Record<string, string>) => say(size.locale, key, params);
    await signInToConsole(page, 'admin', size.locale);
    const title = `E2E told ${size.name} ${Date.now()}`;
    const id = await shellRaffle(title, -1);
    // One entrant, who wins the only prize and is told by SMS once the draw is made.
    const phone = newPhone();
    const entrant = await registerFresh(page, phone);
    const entered = await page.request.post(`/api${pathOf(raffleCalls.registration.path, { id })}`, {
      headers: { authorization: `Bearer ${entrant.AccessToken}` },
    });
    expect(entered.ok()).toBe(true);
    await admin('raffle', 'draw', String(id), '--public-value', 'e2e told');
    const raffleMessages = async () => (await outbox(page, phone)).filter((text) => text.includes(`/raffle?id=${id}`));
    await expect.poll(raffleMessages).toHaveLength(1);

    await page.goto(localizePath(size.locale, '/admin/raffles'));
    const shown = page.locator('[data-raffle]');
    const counts = t('console.raffles.counts', { winners: '1', told: '1', reminded: '0', claimed: '0' });
    // The message is marked sent a moment after the provider took it: the raffle is opened again until it shows so.
    await expect(async () => {
      await page.getByRole('button', { name: `${title} (${size.locale})` }).click();
      await expect(shown.locator('[data-winner-counts]')).toHaveText(counts, { timeout: 1_000 });
    }).toPass();
    await shown.getByRole('button', { name: t('console.raffles.resend') }).click();
    await expect(page.getByText(t('console.raffles.resent'))).toBeVisible();
    await expect.poll(raffleMessages).toHaveLength(2);
    await looksRight(page, size.axeTheme);
  });
}

test('the console tells a visitor to log in first, and a customer without a role that they have none', async ({ page }) => {
  await page.goto('/en/admin/orders');
  await expect(page.getByText(say('en', 'console.signIn.loginFirst'))).toBeVisible();
  await keep(page, await registerFresh(page));
  await page.goto('/en/admin/orders');
  await expect(page.getByText(say('en', 'console.signIn.noRole'))).toBeVisible();
});
