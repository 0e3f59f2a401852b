/**
 * The reference deployment end to end (issue 30): nginx, two production API
 * instances, PostgreSQL and Redis (./deployment.ts), a customer in Chromium
 * through nginx only — then one instance killed with SIGKILL mid-session, then
 * a rolling restart under a steady load. The output names the instance that
 * served each step, from nginx's access log.
 */
import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { identity } from '#contract/identity.ts';
import { localeCodes } from '#contract/locales.ts';
import { hubEvents, hubPath } from '#contract/realtime.ts';
import { say } from '../e2e/routes.ts';
import { startDeployment, type Deployment, type Instance } from './deployment.ts';
import { steadyLoad } from './load.ts';

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

test.beforeAll(async ({ browser }) => {
  // Installing nginx, PostgreSQL and Redis on a fresh machine, then two first starts: minutes, not seconds.
  test.setTimeout(600_000);
  deployment = await startDeployment();
  page = await (await browser.newContext()).newPage();
  // nginx sends each page's policy from the build's maps: a script it left out would be refused, and say so here.
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) policyRefusals.push(message.text());
  });
  // A production database starts empty: the operator adds what is sold and the raffle.
  deployment.admin('product', 'set', 'cloud-idle-monthly', '--kind', 'membership', '--months', '1', '--price', '1500');
  const everywhere = (text: string) => Object.fromEntries(localeCodes.map((code) => [code, text]));
  const inMinutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'deployment-raffle-')), 'raffle.json');
  writeFileSync(
    file,
    JSON.stringify({
      Kind: 'registration',
      Title: everywhere('Launch raffle'),
      Description: everywhere('One month of cloud idling'),
      Prizes: [{ Name: everywhere('One month'), Quantity: 1, Grant: { Kind: 'membership', Days: 30 } }],
      OpensAt: inMinutes(-1),
      ClosesAt: inMinutes(60),
      DrawAt: inMinutes(120),
      PublicSource: everywhere('The test’s own value'),
      MinAccountAgeDays: 0,
    }),
  );
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

/** Buys a month of cloud idling on the plans page and shows its code; answers the order number. */
async function orderPlan(page: Page): Promise<string> {
  await page.goto(`${deployment.origin}/en/account/center/steam/cloudidea`);
  await page
    .locator('[data-plan="cloud-idle-monthly"]')
    .getByRole('button', { name: /Buy for/ })
    .click();
  await page.waitForURL(/\/payment\?key=\d{20}$/);
  await page.getByRole('button', { name: say('en', 'pay.showCode') }).click();
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
  const { orders } = JSON.parse(deployment.admin('order', 'list', '--json')) as { orders: Array<{ Key: string; State: string }> };
  expect(paidOrders.map((key) => orders.find((each) => each.Key === key)?.State)).toEqual(['fulfilled', 'fulfilled']);
  const raffle = JSON.parse(deployment.admin('raffle', 'show', String(raffleId), '--json')) as { raffle: { entrants: number } };
  expect(raffle.raffle.entrants).toBe(1);
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

/** The customer's access token (as the site keeps it) and hub token (asked of the API through nginx). */
async function tokens(): Promise<{ access: string; hub: string }> {
  const { AccessToken: access } = JSON.parse((await page.evaluate(() => localStorage.getItem('beacon.auth')))!) as { AccessToken: string };
  const answer = await page.request.get(`${deployment.origin}/api${identity.hubToken.path}`, { headers: { authorization: `Bearer ${access}` } });
  return { access, hub: ((await answer.json()) as { data: { AccessToken: string } }).data.AccessToken };
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
  const { access, hub } = await tokens();
  // One client on each transport nginx proxies, besides the browser page's.
  const transports = [HttpTransportType.WebSockets, HttpTransportType.ServerSentEvents, HttpTransportType.LongPolling];
  const clients = transports.map((transport) => countingHubClient(transport, hub));
  await Promise.all(clients.map(({ connection }) => connection.start()));
  try {
    const asset = (await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src))!;
    const load = steadyLoad(
      deployment.origin,
      [
        { method: 'GET', path: '/en/' },
        { method: 'GET', path: new URL(asset).pathname },
        { method: 'GET', path: '/api/crypto/public-key' },
        { method: 'GET', path: '/api/commerce/v1/products' },
        { method: 'GET', path: `/api${identity.hubToken.path}`, headers: { authorization: `Bearer ${access}` } },
        { method: 'POST', path: `/api${hubPath}/negotiate?negotiateVersion=1`, headers: { authorization: `Bearer ${hub}` } },
      ],
      {
        // Ten a second from each address, four of every six to the API: 400 API calls a minute, under its per-address limit of 600.
        perSecond: 10,
      },
    );
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
