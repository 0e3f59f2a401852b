/**
 * The reference deployment end to end (issue 30): nginx, two production API
 * instances, PostgreSQL and Redis (./deployment.ts), a customer in Chromium
 * through nginx only — then one instance killed with SIGKILL mid-session, then
 * a rolling restart under a steady load. The output names the instance that
 * served each step, from nginx's access log.
 */
import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import { expect, test, type Page } from '@playwright/test';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { identity } from '#contract/identity.ts';
import { listSize } from '#contract/list.ts';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import sharp from 'sharp';
import { message, type MessageKey } from '../../server/i18n/messages.ts';
import { mountSmallDisk } from '../setup/small-disk.ts';
import { hubEvents, hubPath } from '#contract/realtime.ts';
import { say } from '../e2e/routes.ts';
import { startDeployment, type Deployment, type Instance } from './deployment.ts';
import { steadyLoad, type LoadReport, type LoadRequest } from './load.ts';
import { nginxTimings } from './nginx-settings.ts';

test.describe.configure({ mode: 'serial' });

let deployment: Deployment;
/** The customer's browser tab, shared by the steps: logged in once, by SMS, in the first. */
let page: Page;
const phone = `1390${String(process.pid % 10_000).padStart(4, '0')}${String(Date.now() % 1000).padStart(3, '0')}`;
let raffleId: number;
/** What the browser refused under a page's Content-Security-Policy. */
const policyRefusals: string[] = [];
/** The orders the customer paid, in order. */
const paidOrders: string[] = [];

const step = (text: string) => console.log(`  · ${text}`);
const named = (instance: Instance | undefined) => (instance ? `instance ${instance.name} (${instance.address})` : 'nginx itself');

const everywhere = (text: string) => Object.fromEntries(localeCodes.map((code) => [code, text]));

/** A registration raffle's definition file for `raffle create --file`, one month of cloud idling to win. */
function raffleFile(definition: { Title: object; Description: object; OpensAt: string; ClosesAt: string; DrawAt: string }): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'deployment-raffle-')), 'raffle.json');
  writeFileSync(
    file,
    JSON.stringify({
      Kind: 'registration',
      ...definition,
      Prizes: [{ Name: everywhere('One month'), Quantity: 1, Grant: { Kind: 'membership', Days: 30 } }],
      PublicSource: everywhere('The test’s own value'),
      MinAccountAgeDays: 0,
    }),
  );
  return file;
}

test.beforeAll(async ({ browser }) => {
  // Installing nginx, PostgreSQL and Redis on a fresh machine, then two first starts: minutes, not seconds.
  test.setTimeout(600_000);
  deployment = await startDeployment();
  page = await (await browser.newContext()).newPage();
  // nginx sends each page's policy from the build's maps: a script it left out would be refused, and say so here.
  page.on('console', (entry) => {
    if (/Content.Security.Policy/i.test(entry.text())) policyRefusals.push(entry.text());
  });
  // A production database starts empty: the operator adds what is sold and the raffle.
  deployment.admin('product', 'set', 'cloud-idle-monthly', '--kind', 'membership', '--months', '1', '--price', '1500');
  const inMinutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
  const file = raffleFile({
    Title: everywhere('Launch raffle'),
    Description: everywhere('One month of cloud idling'),
    OpensAt: inMinutes(-1),
    ClosesAt: inMinutes(60),
    DrawAt: inMinutes(120),
  });
  raffleId = (JSON.parse(deployment.admin('raffle', 'create', '--file', file, '--json')) as { raffle: { id: number } }).raffle.id;
});

test.afterAll(async () => {
  await page?.context().close();
  await deployment?.close();
});

/** The newest code the SMS gateway was given for the customer. */
async function smsCode(): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      code = /\d{6}/.exec((await deployment.textsTo(phone)).at(-1) ?? '')?.[0] ?? '';
      return code;
    })
    .not.toBe('');
  return code;
}

/** Buys a month of cloud idling on the plans page, which leads to the order's pay page. */
async function buyPlan(page: Page): Promise<void> {
  await page.goto(`${deployment.origin}/en/account/center/steam/cloudidea`);
  await page
    .locator('[data-plan="cloud-idle-monthly"]')
    .getByRole('button', { name: /Buy for/ })
    .click();
  await page.waitForURL(/\/payment\?key=\d{20}$/);
}

/** Buys a month of cloud idling and shows its code; answers the order number. */
async function orderPlan(page: Page): Promise<string> {
  await buyPlan(page);
  await page.getByRole('button', { name: say('en', 'pay.showCode.wechatpay') }).click();
  await expect(page.locator('.pay-code img')).toBeVisible();
  return new URL(page.url()).searchParams.get('key')!;
}

test('a customer logs in by SMS, buys a plan, sees it paid pushed live and registers for a raffle, all through nginx', async () => {
  await page.goto(`${deployment.origin}/en/account/login`);
  await page.getByRole('checkbox').check();
  await page.locator('input[name="phone"]').fill(phone);
  await page.getByRole('button', { name: say('en', 'login.sendCode') }).click();
  await page.locator('input[name="code"]').fill(await smsCode());
  await page.getByRole('button', { name: say('en', 'login.submit') }).click();
  await expect(page).not.toHaveURL(/\/account\/login/);
  step(`logged in by SMS: the code came from the SMS gateway, the login call was answered by ${named(deployment.servedBy(/loginorregister/))}`);

  const order = await orderPlan(page);
  step(`ordered ${order}: ${named(deployment.servedBy(/POST \/api\/commerce\/v1\/orders"/))}`);
  await deployment.pay(order);
  await expect(page.getByText(say('en', 'pay.outcome.successful'))).toBeVisible({ timeout: 15_000 });
  paidOrders.push(order);
  step(
    `paid: WeChat Pay's notification reached ${named(deployment.servedBy(/notify\/wechatpay/))}, the page's hub is on ${named(deployment.servedBy(/signalr\/message/))}`,
  );

  // Alipay the same way: its code, its notification through nginx, and a refund back to it.
  await buyPlan(page);
  await page.getByRole('button', { name: say('en', 'pay.showCode.alipay') }).click();
  await expect(page.locator('.pay-code img')).toBeVisible();
  const alipayOrder = new URL(page.url()).searchParams.get('key')!;
  await deployment.payWithAlipay(alipayOrder);
  await expect(page.getByText(say('en', 'pay.outcome.successful'))).toBeVisible({ timeout: 15_000 });
  step(`paid ${alipayOrder} with Alipay: its notification reached ${named(deployment.servedBy(/notify\/alipay/))}`);
  deployment.admin('order', 'refund', alipayOrder);
  const refunded = JSON.parse(deployment.admin('order', 'show', alipayOrder, '--json')) as { order: { State: string; Refunds: Array<{ state: string }> } };
  expect(refunded.order).toMatchObject({ State: 'refunded', Refunds: [{ state: 'succeeded' }] });
  step(`refunded ${alipayOrder} to the Alipay payment`);

  await page.goto(`${deployment.origin}/en/raffle?id=${raffleId}`);
  await page.getByRole('button', { name: say('en', 'raffle.board.register') }).click();
  await expect(page.locator('[data-participation]')).toContainText(say('en', 'raffle.board.registered', { number: '1' }));
  step(`registered for raffle ${raffleId}: ${named(deployment.servedBy(/\/registration"/))}`);

  // The page was served by nginx from the built files, precompressed.
  const home = await page.request.get(`${deployment.origin}/en/`, { headers: { 'accept-encoding': 'br' } });
  expect(home.headers()['content-encoding']).toBe('br');
  expect(home.headers()['content-security-policy']).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  expect(home.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  // As the instances answer: the raffle page below /raffle/, the locale's not-found page, and no stand-in.
  const answers = await Promise.all(
    ['/ja/raffle/77', '/ja/nope', '/ko/wechatpay', '/.nginx-maps.conf'].map((url) => page.request.get(`${deployment.origin}${url}`)),
  );
  expect(answers.map((answer) => answer.status())).toEqual([200, 404, 404, 404]);
  expect(await answers[1].text()).toContain(`<html lang="ja"`);
  expect(await answers[2].text()).toContain(`<html lang="ko"`);
  expect(answers[1].headers()['cache-control']).toBe('no-store');
  expect(policyRefusals).toEqual([]);
});

/** The keys of the shop's fulfilled orders, as the CLI lists them: all of them, on one page. */
function fulfilledOrders(): string[] {
  const listed = JSON.parse(deployment.admin('order', 'list', '--state', 'fulfilled', '--size', String(listSize.max), '--json')) as {
    rows: Array<{ Key: string }>;
    total: number;
  };
  expect(listed.total).toBeLessThanOrEqual(listSize.max);
  return listed.rows.map((order) => order.Key);
}

/**
 * Checks that every write the customer was told had happened is there — each
 * paid order fulfilled, the raffle registration counted — and says what it checked.
 */
function acknowledgedWrites(): string {
  expect(fulfilledOrders()).toEqual(expect.arrayContaining(paidOrders));
  const raffle = JSON.parse(deployment.admin('raffle', 'show', String(raffleId), '--json')) as { raffle: { entrants: number } };
  expect(raffle.raffle.entrants).toBe(1);
  return `${paidOrders.length} paid orders fulfilled, 1 raffle registration counted`;
}

/** The cloud-idling page, its hub connected; pushes of `idle set` change it without a reload. */
async function openHubPage(page: Page): Promise<void> {
  await page.goto(`${deployment.origin}/en/account/center/steam/cloudidea`);
  await expect(page.getByRole('status')).toHaveText(say('en', 'realtime.state.Connected'));
  await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
}

/** An operator's status push; the open page shows its card count, without a reload. */
async function pushReaches(page: Page, cards: number): Promise<void> {
  deployment.admin('idle', 'set', phone, '--state', 'Idling', '--game', `730:${cards}:Counter-Strike 2`);
  await expect(page.locator('.cloud-idle-status [data-cards-remaining]')).toHaveText(String(cards), { timeout: 30_000 });
  expect(await page.evaluate(() => (window as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
}

test('an instance killed with SIGKILL: the hub reconnects through nginx to the other, the next push arrives, nothing acknowledged is lost', async () => {
  test.setTimeout(180_000);
  await openHubPage(page);
  const victim = deployment.servedBy(/signalr\/message/)!;
  const survivor = deployment.instances.find((each) => each !== victim)!;
  // A second tab waits for a payment, its own hub connection on the same instance.
  const payPage = await page.context().newPage();
  const order = await orderPlan(payPage);

  expect(await victim.stop('SIGKILL')).toBeNull();
  step(`killed ${named(victim)} with SIGKILL while both tabs were connected to it`);
  await deployment.pay(order);
  await expect(payPage.getByText(say('en', 'pay.outcome.successful'))).toBeVisible({ timeout: 60_000 });
  paidOrders.push(order);
  step(`the payment made after the kill: notified to ${named(deployment.servedBy(/notify\/wechatpay/))}, pushed to the waiting tab`);
  await pushReaches(page, 7);
  step(`the open page reconnected to ${named(deployment.servedBy(/signalr\/message/))} and got the next push`);
  expect(deployment.servedBy(/signalr\/message/)).toBe(survivor);

  // Everything acknowledged is there: both orders paid and the plan granted, the registration counted.
  expect(paidOrders).toHaveLength(2);
  acknowledgedWrites();
  await payPage.close();

  await victim.start();
  // nginx tries an instance it found down again after a few seconds, then sends its clients back to it.
  await expect
    .poll(async () => {
      await page.request.get(`${deployment.origin}/api/health`);
      return deployment.servedBy(/\/api\/health/);
    })
    .toBe(victim);
  step(`started ${named(victim)} again; nginx sends the customer to it again`);
});

/** The customer's access token, as the site keeps it. */
async function accessToken(): Promise<string> {
  return (JSON.parse((await page.evaluate(() => localStorage.getItem('beacon.auth')))!) as { AccessToken: string }).AccessToken;
}

/** The customer's access token and a hub token (asked of the API through nginx, so not while the database is away). */
async function tokens(): Promise<{ access: string; hub: string }> {
  const access = await accessToken();
  const answer = await page.request.get(`${deployment.origin}/api${identity.hubToken.path}`, { headers: { authorization: `Bearer ${access}` } });
  return { access, hub: ((await answer.json()) as { data: { AccessToken: string } }).data.AccessToken };
}

/**
 * The steady load's calls, as the customer's browser makes them: a page, a
 * hashed asset, public API calls, the customer's own (one reads the account
 * from the database), a hub negotiation. At ten a second from each address,
 * five of every seven to the API: some 430 API calls a minute, under the per-address limit of 600.
 * Under a fault, `faultPace` a second from each of the eight addresses.
 */
async function customerCalls(): Promise<LoadRequest[]> {
  const { access, hub } = await tokens();
  const asset = (await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src))!;
  const customer = { authorization: `Bearer ${access}` };
  return [
    { method: 'GET', path: '/en/' },
    { method: 'GET', path: new URL(asset).pathname },
    { method: 'GET', path: '/api/crypto/public-key' },
    { method: 'GET', path: '/api/commerce/v1/products' },
    { method: 'GET', path: `/api${identity.hubToken.path}`, headers: customer },
    { method: 'POST', path: `/api${identity.refreshUserInfo.path}`, headers: customer, body: JSON.stringify({ Refresh: true }) },
    { method: 'POST', path: `/api${hubPath}/negotiate?negotiateVersion=1`, headers: { authorization: `Bearer ${hub}` } },
  ];
}

/** The official client on one transport, reconnecting at once, counting its reconnections. */
function countingHubClient(transport: HttpTransportType, hubToken: string): { connection: HubConnection; reconnections: () => number } {
  let reconnections = 0;
  const connection = new HubConnectionBuilder()
    .withUrl(`${deployment.origin}/api${hubPath}`, { transport, accessTokenFactory: () => hubToken })
    .withAutomaticReconnect({ nextRetryDelayInMilliseconds: () => 500 })
    .configureLogging(LogLevel.None)
    .build();
  connection.onreconnected(() => reconnections++);
  return { connection, reconnections: () => reconnections };
}

test('a rolling restart under a steady load of mixed requests: no request fails, every hub client reconnects', async () => {
  test.setTimeout(300_000);
  await openHubPage(page);
  const { hub } = await tokens();
  // One client on each transport nginx proxies, besides the browser page's.
  const transports = [HttpTransportType.WebSockets, HttpTransportType.ServerSentEvents, HttpTransportType.LongPolling];
  const clients = transports.map((transport) => countingHubClient(transport, hub));
  await Promise.all(clients.map(({ connection }) => connection.start()));
  try {
    const load = steadyLoad(deployment.origin, await customerCalls(), { perSecond: 10 });
    // docs/deploy.md's rolling restart: out of the upstream, SIGTERM, start, back in; then the next.
    for (const instance of deployment.instances) {
      await deployment.setDown(instance, true);
      expect(await instance.stop('SIGTERM')).toBe(0);
      step(`${named(instance)} taken out of nginx's upstream, stopped on SIGTERM within its deadline`);
      await instance.start();
      await deployment.setDown(instance, false);
      step(`${named(instance)} started again and back in the upstream`);
    }
    const report = await load.stop();
    step(`rolling restart: ${report.sent} requests sent, ${report.failed} failed${report.failed ? `: ${report.failures.slice(0, 5).join('; ')}` : ''}`);

    // Every hub client was on a restarted instance, came back, and hears the next push.
    const received = clients.map(({ connection }) => {
      const heard = { push: false };
      connection.on(hubEvents.cloudIdleStatus.name, () => (heard.push = true));
      return heard;
    });
    await pushReaches(page, 9);
    await expect.poll(() => received.map((heard) => heard.push)).toEqual([true, true, true]);
    step(
      `hub reconnections: ${transports.map((transport, i) => `${HttpTransportType[transport]} ${clients[i].reconnections()}`).join(', ')}; they and the browser page got the next push`,
    );
    for (const [i, { connection, reconnections }] of clients.entries()) {
      // A long-polling or event-stream client still on the other instance moves back when its next request reaches its own again.
      await expect.poll(() => connection.state, { message: HttpTransportType[transports[i]] }).toBe(HubConnectionState.Connected);
      expect(reconnections(), HttpTransportType[transports[i]]).toBeGreaterThanOrEqual(1);
    }
    expect(report.failures).toEqual([]);
    expect(report.sent).toBeGreaterThan(100);
  } finally {
    await Promise.all(clients.map(({ connection }) => connection.stop()));
  }
});

/** Requests a second from each of the load's eight addresses while a fault is tried: 32 a second through nginx. */
const faultPace = 4;

/** One fault's line in the output: what the steady load met, how soon the service was back, what was checked afterwards. */
function faultLine(fault: string, report: LoadReport, recovered: string, checked: string): void {
  console.log(
    `  ◆ ${fault}: ${report.sent} requests sent, ${report.failed} failed (by status: ${report.byStatus()}); slowest answer ${seconds(report.slowestMs())}; ${recovered}; checked afterwards: ${checked}`,
  );
}

/** A duration as the output gives it: milliseconds under a second, else seconds. */
const seconds = (ms: number | null) => (ms === null ? 'never' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** A raffle the operator will draw at `drawAt` (ms since the epoch), its registration closed and its public value entered before. */
async function raffleDrawnAt(drawAt: number): Promise<number> {
  const closesAt = Date.now() + 1500;
  const file = raffleFile({
    Title: everywhere('Drawn while the database was away'),
    Description: everywhere('A scheduled draw due during an outage'),
    OpensAt: new Date(Date.now() - 60_000).toISOString(),
    ClosesAt: new Date(closesAt).toISOString(),
    DrawAt: new Date(drawAt).toISOString(),
  });
  const id = (JSON.parse(deployment.admin('raffle', 'create', '--file', file, '--json')) as { raffle: { id: number } }).raffle.id;
  await sleep(closesAt + 200 - Date.now());
  expect(JSON.parse(deployment.admin('raffle', 'value', String(id), 'outage-test-value', '--json'))).toMatchObject({ refused: null });
  return id;
}

/** The raffle drawn by the schedule while the database was away, and when (checked at the end: the schedule runs each minute). */
let drawnAfterOutage: { raffleId: number; databaseBackAt: number } | undefined;

test('PostgreSQL restarted under load: calls answer 503 with Retry-After at once meanwhile, the instances serve again by themselves, nothing acknowledged is lost', async () => {
  test.setTimeout(180_000);
  await openHubPage(page);
  // Due while the database is away: drawn once it is back.
  const raffleDue = await raffleDrawnAt(Date.now() + 4_000);
  const load = steadyLoad(deployment.origin, await customerCalls(), {
    perSecond: faultPace,
    hangMs: 10_000,
    accepts: (answer) => answer.status === 503 && answer.envelopeWithRetryAfter,
  });
  await sleep(2_000);
  await deployment.postgres.shutDown();
  step('PostgreSQL shut down (pg_ctl stop -m fast) under the steady load');
  await sleep(2_000);
  const ready = await fetch(`${deployment.origin}/api/ready`);
  expect(ready.status).toBe(503);
  const during = await fetch(`${deployment.origin}/api${identity.refreshUserInfo.path}`, {
    method: 'POST',
    // Only the access token: asking for a hub token now would need the database whenever this instance has not checked that token lately.
    headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json', 'accept-language': 'ja' },
    body: '{"Refresh":true}',
  });
  expect(during.status).toBe(503);
  expect(((await during.json()) as { message: string }).message).toMatch(/データベース/);
  step(`while it is away: /api/ready answers 503, a call answers 503 in the reader's language with Retry-After ${during.headers.get('retry-after')} s`);
  await sleep(6_000);
  await deployment.postgres.startAgain();
  const backAt = performance.now();
  drawnAfterOutage = { raffleId: raffleDue, databaseBackAt: Date.now() };
  await expect.poll(async () => (await fetch(`${deployment.origin}/api/ready`)).status, { timeout: 30_000 }).toBe(200);
  // A few more seconds of load: every instance's pool is serving again, not just the one that answered.
  await sleep(3_000);
  const report = await load.stop();

  expect(deployment.instances.map((instance) => instance.running())).toEqual([true, true]);
  expect(report.answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
  const recovered = report.firstSuccessAfter(backAt);
  faultLine(
    'PostgreSQL restarted (10 s away)',
    report,
    `first API success ${seconds(recovered)} after it was back, no instance restarted`,
    acknowledgedWrites(),
  );
  expect(report.failures).toEqual([]);
  expect(recovered).not.toBeNull();
  // The customer's open page carries on: the next push reaches it.
  await pushReaches(page, 11);
});

test('Redis stopped for 30 s under load: nothing fails, limits count in each instance, a payment approved meanwhile reaches the waiting page', async () => {
  test.setTimeout(180_000);
  const payPage = await page.context().newPage();
  const order = await orderPlan(payPage);
  const load = steadyLoad(deployment.origin, await customerCalls(), { perSecond: faultPace, hangMs: 10_000 });
  await sleep(2_000);
  await deployment.redis.shutDown();
  const downAt = performance.now();
  step('Redis stopped under the steady load, a customer waiting on the pay page');
  await deployment.pay(order);
  await expect(payPage.getByText(say('en', 'pay.outcome.successful'))).toBeVisible({ timeout: 30_000 });
  paidOrders.push(order);
  step(`the payment approved while Redis was away reached the waiting page (without a reload) ${seconds(performance.now() - downAt)} after Redis stopped`);
  const ready = (await (await fetch(`${deployment.origin}/api/ready`)).json()) as { data: { Redis: string } };
  expect(ready.data.Redis).toBe('down');
  await sleep(Math.max(0, downAt + 30_000 - performance.now()));
  await deployment.redis.startAgain();
  const backAt = performance.now();
  // Pushes between instances resume once both instances have reconnected: an operator's push, made again until one reaches the open page.
  let cards = 20;
  await expect
    .poll(
      async () => {
        deployment.admin('idle', 'set', phone, '--state', 'Idling', '--game', `730:${++cards}:Counter-Strike 2`);
        await sleep(300);
        return (await page.locator('.cloud-idle-status [data-cards-remaining]').textContent()) === String(cards);
      },
      { timeout: 30_000, intervals: [0] },
    )
    .toBe(true);
  const pushedAfter = performance.now() - backAt;
  const report = await load.stop();
  await payPage.close();

  faultLine('Redis stopped (30 s)', report, `pushes between instances again ${seconds(pushedAfter)} after it was back`, acknowledgedWrites());
  expect(report.failures).toEqual([]);
});

/** A server message's first sentence in the customer's language (the rest may quote the request's reference). */
const serverSays = (locale: LocaleCode, key: MessageKey) => message(locale, key, { id: 'x' }).split(/(?<=[.。!！])\s*/)[0];

test('WeChat Pay slow (30 s), failing (500) and cutting connections: the customer is told within seconds, the order stays open, a later try pays it once', async () => {
  test.setTimeout(240_000);
  const load = steadyLoad(deployment.origin, await customerCalls(), { perSecond: faultPace, hangMs: 10_000 });
  const told: string[] = [];
  let slowOrder = '';
  for (const fault of ['slow', 'fail', 'reset'] as const) {
    await deployment.providerFaults({ wechatpay: fault, slowMs: 30_000 });
    const payPage = await page.context().newPage();
    await buyPlan(payPage);
    const clicked = performance.now();
    await payPage.getByRole('button', { name: say('en', 'pay.showCode.wechatpay') }).click();
    await expect(payPage.getByText(serverSays('en', fault === 'fail' ? 'paymentProviderError' : 'paymentProviderFailed'))).toBeVisible({ timeout: 10_000 });
    told.push(`${fault} told in ${seconds(performance.now() - clicked)}`);
    expect(performance.now() - clicked).toBeLessThan(8_000);
    if (fault === 'slow') slowOrder = new URL(payPage.url()).searchParams.get('key')!;
    await payPage.close();
  }
  await deployment.providerFaults({ wechatpay: null });
  // The order the slow provider was asked about is still open: paid on a later try, once.
  const payPage = await page.context().newPage();
  await payPage.goto(`${deployment.origin}/en/payment?key=${slowOrder}`);
  await payPage.getByRole('button', { name: say('en', 'pay.showCode.wechatpay') }).click();
  await expect(payPage.locator('.pay-code img')).toBeVisible();
  await deployment.pay(slowOrder);
  await expect(payPage.getByText(say('en', 'pay.outcome.successful'))).toBeVisible({ timeout: 30_000 });
  paidOrders.push(slowOrder);
  await payPage.close();
  const report = await load.stop();
  faultLine('WeChat Pay slow, failing, cutting', report, `${told.join(', ')}; the slow one's order paid on the next try`, acknowledgedWrites());
  expect(fulfilledOrders()).toHaveLength(paidOrders.length);
  expect(report.failures).toEqual([]);
});

test('the SMS gateway failing or slow: the customer is told within seconds, nothing is counted, a code asked for again at once arrives', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const load = steadyLoad(deployment.origin, await customerCalls(), { perSecond: faultPace, hangMs: 10_000 });
  const visitor = await (await browser.newContext()).newPage();
  const told: string[] = [];
  await visitor.goto(`${deployment.origin}/ru/account/login`);
  await visitor.getByRole('checkbox').check();
  await visitor.locator('input[name="phone"]').fill(phone);
  for (const fault of ['fail', 'slow'] as const) {
    await deployment.providerFaults({ sms: fault, slowMs: 30_000 });
    const clicked = performance.now();
    await visitor.getByRole('button', { name: say('ru', 'login.sendCode') }).click();
    await expect(visitor.getByText(serverSays('ru', 'smsNotSent'))).toBeVisible({ timeout: 10_000 });
    told.push(`${fault} told in ${seconds(performance.now() - clicked)}`);
    expect(performance.now() - clicked).toBeLessThan(8_000);
  }
  await deployment.providerFaults({ sms: null });
  const texts = (await deployment.textsTo(phone)).length;
  await visitor.getByRole('button', { name: say('ru', 'login.sendCode') }).click();
  await expect.poll(async () => (await deployment.textsTo(phone)).length).toBe(texts + 1);
  await visitor.locator('input[name="code"]').fill(await smsCode());
  await visitor.getByRole('button', { name: say('ru', 'login.submit') }).click();
  await expect(visitor).not.toHaveURL(/\/account\/login/);
  await visitor.context().close();
  const report = await load.stop();
  faultLine('SMS gateway failing, slow', report, `${told.join(', ')}; the code asked for at once afterwards arrived and logged in`, acknowledgedWrites());
  expect(report.failures).toEqual([]);
});

/** The names of the files in `folder` and below it (none when there is no such folder). */
const filesIn = (folder: string) =>
  existsSync(folder)
    ? readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name)
    : [];

/** A PNG of the given colour, as a customer's photo. */
const photo = (background: string) =>
  sharp({ create: { width: 400, height: 300, channels: 3, background } })
    .png()
    .toBuffer();

/** Chooses `image` as the avatar on the open profile page. */
async function chooseAvatar(profile: Page, locale: LocaleCode, image: Buffer): Promise<void> {
  const [chooser] = await Promise.all([
    profile.waitForEvent('filechooser'),
    profile.getByRole('button', { name: say(locale, 'account.edit.chooseImage') }).click(),
  ]);
  await chooser.setFiles({ name: 'me.png', mimeType: 'image/png', buffer: image });
}

test('the uploads disk full: an avatar upload says so in the customer’s language, nothing half-written stays, the site keeps serving', async () => {
  test.setTimeout(180_000);
  // A host that keeps uploads on its own disk: instance A without the bucket, its uploads folder a small file system, alone in nginx's upstream.
  const [a, b] = deployment.instances;
  await deployment.setDown(a, true);
  expect(await a.stop('SIGTERM')).toBe(0);
  const disk = mountSmallDisk(path.join(a.dataDir, 'uploads'), '1m');
  expect(disk, 'mounting a small file system needs root').not.toBeNull();
  try {
    await a.start(Object.fromEntries(Object.keys(deployment.bucketSettings).map((key) => [key, null])));
    await deployment.setDown(a, false);
    await deployment.setDown(b, true);
    disk!.fill();
    const load = steadyLoad(deployment.origin, await customerCalls(), { perSecond: faultPace, hangMs: 10_000 });
    const profile = await page.context().newPage();
    await profile.goto(`${deployment.origin}/ja/account/center/edit`);
    const before = await profile.locator('img[data-avatar]').getAttribute('src');
    await chooseAvatar(profile, 'ja', await photo('#7d2f4a'));
    await expect(profile.getByText(serverSays('ja', 'storageFull'))).toBeVisible({ timeout: 10_000 });
    // No file but the one that filled the disk: nothing half-written stayed.
    expect(filesIn(path.join(a.dataDir, 'uploads'))).toEqual(['.filler']);
    await profile.reload();
    expect(await profile.locator('img[data-avatar]').getAttribute('src')).toBe(before);
    await profile.close();
    const report = await load.stop();
    faultLine('uploads disk full', report, 'the upload refused with 507 and the ja message, no file left, the avatar unchanged', acknowledgedWrites());
    expect(report.failures).toEqual([]);
  } finally {
    await deployment.setDown(b, false);
    await deployment.setDown(a, true);
    await a.stop('SIGTERM');
    disk?.unmount();
    await a.start();
    await deployment.setDown(a, false);
  }
});

test('two hosts without a shared disk: an avatar uploaded through one instance is served by the other, from the bucket', async () => {
  const profile = await page.context().newPage();
  await profile.goto(`${deployment.origin}/en/account/center/edit`);
  await chooseAvatar(profile, 'en', await photo('#2f4a7d'));
  await expect(profile.getByText(say('en', 'account.edit.avatarSaved'))).toBeVisible();
  const avatar = (await profile.locator('img[data-avatar]').getAttribute('src'))!;
  await profile.close();
  const uploadedBy = deployment.servedBy(/POST \/api\/.*avatar/)!;
  const other = deployment.instances.find((each) => each !== uploadedBy)!;
  const served = await fetch(`http://${other.address}${avatar}`);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('image/webp');
  // Neither host's disk holds it: it is in the bucket.
  for (const instance of deployment.instances) expect(filesIn(path.join(instance.dataDir, 'uploads')), instance.name).toEqual([]);
  step(`the avatar uploaded through ${named(uploadedBy)} is served by ${named(other)}; neither instance's DATA_DIR holds an uploaded file`);
});

test('an instance frozen for 20 s under load: nginx sends requests to the other once one times out, the open page gets the next push, the instance serves again once awake', async () => {
  test.setTimeout(180_000);
  await openHubPage(page);
  const frozen = deployment.servedBy(/signalr\/message/)!;
  const other = deployment.instances.find((each) => each !== frozen)!;
  // Nothing waits longer than one read timeout and a retry on the other instance. A POST the frozen instance may
  // have read is never sent to another: nginx answers it with its 503 envelope, and the customer tries again.
  const load = steadyLoad(deployment.origin, await customerCalls(), {
    perSecond: faultPace,
    hangMs: nginxTimings.apiReadTimeoutMs + 5_000,
    accepts: (answer) => answer.status === 503 && answer.envelopeWithRetryAfter && answer.call.startsWith('POST '),
  });
  await sleep(2_000);
  frozen.freeze(true);
  const frozenAt = performance.now();
  step(`froze ${named(frozen)} (SIGSTOP), the customer's page connected to it`);
  await sleep(20_000);
  frozen.freeze(false);
  const wokeAt = performance.now();
  await pushReaches(page, 17);
  step(`woke it (SIGCONT) after 20 s; the open page got the next push through ${named(deployment.servedBy(/signalr\/message/))}`);
  // nginx tries the instance it left out again after its fail timeout, and takes it back.
  await expect
    .poll(
      async () => {
        await page.request.get(`${deployment.origin}/api/health`);
        return deployment.servedBy(/\/api\/health/);
      },
      { timeout: 15_000 },
    )
    .toBe(frozen);
  const servesAgain = performance.now() - wokeAt;
  const report = await load.stop();

  // The calls that waited on the frozen instance: until nginx's first timeout, and one every fail timeout after.
  const held = report.answers.filter((answer) => answer.sentAt >= frozenAt - 1_000 && answer.sentAt < wokeAt && answer.ms > 2_000);
  const movedAt = Math.min(...held.map((answer) => answer.sentAt + answer.ms)) - frozenAt;
  faultLine(
    'one instance frozen (20 s)',
    report,
    `${held.length} calls waited on it until nginx's read timeout (${seconds(nginxTimings.apiReadTimeoutMs)}): ${held.filter((answer) => answer.status === 503).length} POSTs answered 503 by nginx, the rest by ${named(other)}; new calls went to ${named(other)} from ${seconds(movedAt)} after the freeze; it served again ${seconds(servesAgain)} after waking`,
    acknowledgedWrites(),
  );
  expect(report.failures).toEqual([]);
  expect(movedAt).toBeLessThan(nginxTimings.apiReadTimeoutMs + 2_000);
});

test('no instance answering: nginx answers the API with its 503 envelope in the reader’s language, never its HTML page', async () => {
  for (const instance of deployment.instances) await deployment.setDown(instance, true);
  try {
    const answer = await fetch(`${deployment.origin}/api/commerce/v1/products`, { headers: { 'accept-language': 'ru-RU,ru;q=0.9' } });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await answer.json()) as { code: number; message: string; data: null };
    expect(body).toMatchObject({ code: 503, data: null });
    expect(body.message).toContain(serverSays('ru', 'instancesUnavailable'));
    step(`no instance in the upstream: /api answered 503 JSON in ru with Retry-After ${answer.headers.get('retry-after')} s`);
  } finally {
    for (const instance of deployment.instances) await deployment.setDown(instance, false);
  }
});

test('scheduled work due while the database was away ran once it was back, once', async () => {
  test.setTimeout(150_000);
  const { raffleId: id, databaseBackAt } = drawnAfterOutage!;
  // The draws' schedule runs each minute.
  let raffle = { drawnAt: null as string | null };
  await expect
    .poll(
      () => {
        raffle = (JSON.parse(deployment.admin('raffle', 'show', String(id), '--json')) as { raffle: { drawnAt: string | null } }).raffle;
        return raffle.drawnAt;
      },
      { timeout: 120_000, intervals: [2_000] },
    )
    .not.toBeNull();
  expect(Date.parse(raffle.drawnAt!)).toBeGreaterThan(databaseBackAt);
  // Asked to draw it again, the operators' command refuses, and exits with an error.
  const again = (() => {
    try {
      return `exited 0: ${deployment.admin('raffle', 'draw', String(id), '--json')}`;
    } catch (error) {
      const { stdout, stderr } = error as { stdout: string; stderr: string };
      return `${stdout}${stderr}`;
    }
  })();
  expect(again).toContain('drawn already');
  step(`raffle ${id}, due while the database was away, was drawn ${seconds(Date.parse(raffle.drawnAt!) - databaseBackAt)} after it was back, once`);
});
