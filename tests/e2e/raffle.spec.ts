/**
 * Raffles in a real browser: registering and the participation number, the
 * operator's draw arriving without a reload and by SMS, claiming the prize; the verify
 * page agreeing with a draw and disagreeing once a published value is
 * changed; an instant win and an instant loss; login and back for a visitor;
 * and the raffle pages passing axe and fitting a phone.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { pathOf } from '#contract/api.ts';
import { localeCodes } from '#contract/locales.ts';
import { raffleCalls, type RaffleInfo } from '#contract/raffle.ts';
import { drawWinners } from '#contract/raffle-draw.ts';
import { admin } from './admin-cli.ts';
import { pageProblems } from './page-checks.ts';
import { localizePath, say } from './routes.ts';
import { logInOnPage, outbox, signInFresh } from './session.ts';

const everywhere = (text: string) => Object.fromEntries(localeCodes.map((code) => [code, `${text} (${code})`]));
const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

/** A raffle made by the operators' command from a definition file; answers its id. */
async function createRaffle(title: string, definition: Record<string, unknown>): Promise<number> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'raffle-e2e-')), 'raffle.json');
  writeFileSync(file, JSON.stringify({ Title: everywhere(title), Description: everywhere(`About ${title}`), OpensAt: minutes(-1), ...definition }));
  const printed = await admin('raffle', 'create', '--file', file, '--json');
  return (JSON.parse(printed) as { raffle: { id: number } }).raffle.id;
}

const walletPrize = (fen: number, quantity: number) => ({ Name: everywhere(`${fen} fen`), Quantity: quantity, Grant: { Kind: 'wallet', Amount: fen } });

const registrationRaffle = (title: string) =>
  createRaffle(title, {
    Kind: 'registration',
    Prizes: [walletPrize(500, 1)],
    ClosesAt: minutes(60),
    DrawAt: minutes(120),
    PublicSource: everywhere('A test value'),
  });

for (const locale of ['zh-CN', 'en', 'ko'] as const) {
  test(`${locale}: register, see the number, get drawn by the operator and claim, without a reload`, async ({ page }) => {
    const id = await registrationRaffle(`Draw ${locale}`);
    await page.goto(localizePath(locale, '/'));
    const { phone } = await signInFresh(page);
    await page.goto(`${localizePath(locale, '/raffle')}?id=${id}`);
    await expect(page.locator('[data-state]')).toHaveText(say(locale, 'raffle.board.state.open'));
    await page.getByRole('button', { name: say(locale, 'raffle.board.register') }).click();
    await expect(page.locator('[data-participation]')).toContainText(say(locale, 'raffle.board.registered', { number: '1' }));
    await expect(page.locator('[data-count]')).toHaveText(say(locale, 'raffle.board.count', { count: '1' }));

    // A later visit remembers the registration.
    await page.reload();
    await expect(page.locator('[data-participation]')).toContainText(say(locale, 'raffle.board.registered', { number: '1' }));

    await admin('raffle', 'draw', String(id), '--public-value', `e2e ${locale}`);
    const won = page.locator('[data-outcome="won"]');
    await expect(won).toContainText(say(locale, 'raffle.board.won', { number: '1', prize: `500 fen (${locale})` }), { timeout: 5_000 });
    await expect(page.locator('[data-winners] li')).toHaveCount(1);
    // The winner is told by SMS too, with the page to claim on, for when the page is not open.
    await expect.poll(async () => (await outbox(page, phone)).filter((text) => text.includes(`/raffle?id=${id}`))).toHaveLength(1);
    await won.getByRole('button', { name: say(locale, 'raffle.board.claim') }).click();
    await expect(won.locator('[data-claimed]')).toBeVisible();
    await expect(won.getByRole('button', { name: say(locale, 'raffle.board.claim') })).toHaveCount(0);
  });
}

test('a page reloaded 12 to 30 s after registering and the draw always shows the user’s own result and the claim button, ten times', async ({ page }) => {
  // Ten rounds, each starting two operators' commands (create, draw) as processes: twice the usual time.
  test.setTimeout(120_000);
  await page.goto(localizePath('en', '/'));
  await signInFresh(page);
  for (let round = 0; round < 10; round++) {
    const id = await registrationRaffle(`Reload ${round}`);
    await page.goto(`${localizePath('en', '/raffle')}?id=${id}`);
    await page.getByRole('button', { name: say('en', 'raffle.board.register') }).click();
    await expect(page.locator('[data-participation]')).toContainText(say('en', 'raffle.board.registered', { number: '1' }));
    await admin('raffle', 'draw', String(id), '--public-value', `reload ${round}`);

    // The reader comes back 12 to 30 s later: the page's clock moves on, as the cache it keeps sees it.
    const registeredAt = await page.evaluate(() => Date.now());
    await page.clock.setSystemTime(registeredAt + 12_000 + round * 2_000);
    await page.reload();
    const won = page.locator('[data-outcome="won"]');
    await expect(won, `round ${round}`).toContainText(say('en', 'raffle.board.won', { number: '1', prize: '500 fen (en)' }));
    await expect(won.getByRole('button', { name: say('en', 'raffle.board.claim') })).toBeVisible();
  }
});

test('after one login signs out and another signs in, the raffle page shows the new login’s own state', async ({ page }) => {
  const id = await registrationRaffle('Two logins');
  const raffleUrl = `${localizePath('en', '/raffle')}?id=${id}`;
  await page.goto(localizePath('en', '/'));
  await signInFresh(page);
  await page.goto(raffleUrl);
  await page.getByRole('button', { name: say('en', 'raffle.board.register') }).click();
  await expect(page.locator('[data-participation]')).toContainText(say('en', 'raffle.board.registered', { number: '1' }));

  await page.getByRole('button', { name: 'Account menu' }).click();
  const signedOut = page.waitForEvent('load');
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await signedOut;
  await page.goto(localizePath('en', '/account/login'));
  await logInOnPage(page);
  await page.goto(raffleUrl);
  await expect(page.getByRole('button', { name: say('en', 'raffle.board.register') })).toBeVisible();
  await expect(page.locator('[data-participation]')).toHaveCount(0);
  await page.getByRole('button', { name: say('en', 'raffle.board.register') }).click();
  await expect(page.locator('[data-participation]')).toContainText(say('en', 'raffle.board.registered', { number: '2' }));
});

test('the verify page says verified for a draw, and not verified once a published value is changed', async ({ page }) => {
  const id = await registrationRaffle('Verify');
  // Three entrants, registered through the API: the browser's part of registering is the test above.
  await page.goto(localizePath('en', '/'));
  for (let i = 0; i < 3; i++) {
    const { auth } = await signInFresh(page);
    const response = await page.request.post(`/api${pathOf(raffleCalls.registration.path, { id })}`, {
      headers: { authorization: `Bearer ${auth.AccessToken}` },
    });
    expect((await response.json()).data).toMatchObject({ Number: i + 1 });
  }
  await admin('raffle', 'draw', String(id), '--public-value', '01 02 03 04 05 06 + 07');

  await page.goto(`${localizePath('en', '/raffle/verify')}?id=${id}`);
  const verdict = page.locator('[data-verdict]');
  await expect(verdict).toHaveAttribute('data-verdict', 'verified');
  await expect(verdict).toHaveText(say('en', 'raffle.verify.verified'));
  await expect(page.getByText(say('en', 'raffle.verify.commitmentOk'))).toBeVisible();

  // A value that draws someone else: with three entrants, a third of all values would draw the same winner.
  const info = (await (await page.request.get(`/api${pathOf(raffleCalls.info.path, { id })}`)).json()).data as RaffleInfo;
  const drawWith = async (publicValue: string) =>
    JSON.stringify(await drawWinners({ seed: info.Proof!.Seed!, publicValue, entrants: 3, quantities: info.Prizes.map((prize) => prize.Quantity) }));
  const published = await drawWith('01 02 03 04 05 06 + 07');
  let other = 8;
  while ((await drawWith(`01 02 03 04 05 06 + ${other}`)) === published) other += 1;
  await page.getByRole('textbox', { name: say('en', 'raffle.verify.publicValue') }).fill(`01 02 03 04 05 06 + ${other}`);
  await expect(verdict).toHaveAttribute('data-verdict', 'not-verified');
  await expect(verdict).toHaveText(say('en', 'raffle.verify.notVerified'));

  await page.getByRole('textbox', { name: say('en', 'raffle.verify.publicValue') }).fill('01 02 03 04 05 06 + 07');
  await expect(verdict).toHaveAttribute('data-verdict', 'verified');
  await page.getByRole('textbox', { name: say('en', 'raffle.verify.seed') }).fill('0'.repeat(64));
  await expect(verdict).toHaveAttribute('data-verdict', 'not-verified');
  await expect(page.getByText(say('en', 'raffle.verify.commitmentBad'))).toBeVisible();
});

const instantRaffle = (title: string, odds: number) =>
  createRaffle(title, { Kind: 'instant', Prizes: [walletPrize(300, 5)], ClosesAt: minutes(60), Odds: odds, PerUserLimit: 2 });

for (const locale of ['zh-CN', 'en', 'ko'] as const) {
  test(`${locale}: an instant draw wins, another loses, and both check out once the seed is revealed`, async ({ page }) => {
    const sure = await instantRaffle(`Sure ${locale}`, 1_000_000);
    const never = await instantRaffle(`Never ${locale}`, 1);
    await page.goto(localizePath(locale, '/'));
    await signInFresh(page);

    await page.goto(`${localizePath(locale, '/raffle/forthwith')}?id=${sure}`);
    await page.getByRole('button', { name: say(locale, 'raffle.instant.draw'), exact: true }).click();
    await expect(page.locator('[data-outcome]')).toHaveText(say(locale, 'raffle.instant.won', { prize: `300 fen (${locale})` }));
    await expect(page.locator('[data-stock]')).toHaveText(say(locale, 'raffle.instant.stock', { count: '4', total: '5' }));
    await expect(page.locator('[data-history] li')).toHaveCount(1);

    await page.goto(`${localizePath(locale, '/raffle/forthwith')}?id=${never}`);
    await page.getByRole('button', { name: say(locale, 'raffle.instant.draw'), exact: true }).click();
    await expect(page.locator('[data-outcome="lost"]')).toBeVisible();
    await expect(page.locator('[data-left]')).toHaveText(say(locale, 'raffle.instant.left', { count: '1' }));
    const hash = await page.locator('[data-seed-hash]').textContent();
    await page.getByRole('button', { name: say(locale, 'raffle.instant.rotate') }).click();
    await expect(page.getByRole('status').filter({ hasText: say(locale, 'raffle.instant.rotated') })).toBeVisible();
    await expect(page.locator('[data-seed-hash]')).not.toHaveText(hash!);

    await page.getByRole('link', { name: say(locale, 'raffle.instant.verify') }).click();
    await expect(page.locator('[data-verdict]')).toHaveAttribute('data-verdict', 'verified');
  });
}

test('a visitor who is not logged in is sent to login to register, and comes back to the raffle', async ({ page }) => {
  const id = await registrationRaffle('Login first');
  const raffleUrl = `${localizePath('en', '/raffle')}?id=${id}`;
  await page.goto(raffleUrl);
  await page.getByRole('link', { name: say('en', 'raffle.board.loginToRegister') }).click();
  await expect(page).toHaveURL(/\/account\/login\?redirectUrl=/);
  await logInOnPage(page);

  await expect(page).toHaveURL(raffleUrl);
  await page.getByRole('button', { name: say('en', 'raffle.board.register') }).click();
  await expect(page.locator('[data-participation]')).toContainText(say('en', 'raffle.board.registered', { number: '1' }));
});

for (const locale of ['ja', 'ru'] as const) {
  test(`${locale}: the raffle pages pass axe and fit 320 px, light and dark`, async ({ page }) => {
    test.slow();
    await page.goto(localizePath(locale, '/'));
    await signInFresh(page);
    const problems = await pageProblems(page, [
      { url: localizePath(locale, '/raffle'), ready: '[data-raffle]' },
      { url: localizePath(locale, '/raffle/forthwith'), ready: '[data-history], .raffle-participation' },
      { url: `${localizePath(locale, '/raffle/verify')}?id=3`, ready: '[data-verdict]' },
    ]);
    expect(problems).toEqual([]);
  });
}
