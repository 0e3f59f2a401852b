/**
 * The Prometheus metrics (docs/metrics.md): no listener and nothing counted
 * without METRICS_PORT, never a route on the public port; with it, a listener
 * of its own that shows what real requests, hub connections, payments through
 * the sandbox, limits and jobs did, with bounded labels.
 */
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import { identity, system } from '#contract/identity.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { products } from '../../server/db/schema.ts';
import { failureCleanupJob } from '../../server/modules/activation/cdkeys.ts';
import { demoProducts } from '../../server/modules/commerce/catalogue.ts';
import { orderSweepJob } from '../../server/modules/commerce/expiry.ts';
import { changeBalance } from '../../server/modules/commerce/wallet.ts';
import { loginBySms } from './api/codes.ts';
import { runAdmin, startApp } from './api/harness.ts';
import { hubClient, startHubApp, type HubApp } from './realtime/harness.ts';

/** Listening TCP servers in this process: the app's public one, and the metrics listener when there is one. */
const tcpServers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'TCPServerWrap').length;

/**
 * The value of the one series of `name` with exactly these labels in a scrape
 * (Prometheus text format), or undefined when there is none.
 */
function sample(scrape: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of scrape.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, label, value]) => [label, value]));
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(found).length && wanted.every(([label, value]) => found[label] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('without METRICS_PORT', () => {
  it('opens no listener, counts nothing and has no metrics route on the public port', async () => {
    const before = tcpServers();
    const t = await startApp();
    try {
      expect(t.app.metricsUrl).toBeNull();
      expect(tcpServers()).toBe(before);
      expect(t.app.printRoutes()).not.toContain('metrics');
      expect((await t.app.inject({ url: '/api/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses a METRICS_PORT that is the public port or not a port', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
        throw error;
      }
      return 'accepted';
    };
    expect(refusal({ PORT: '4321', METRICS_PORT: '4321' })).toMatch(/must differ from PORT[\s\S]*at METRICS_PORT/);
    expect(refusal({ METRICS_PORT: '' })).toMatch(/must be a port number[\s\S]*at METRICS_PORT/);
    expect(refusal({ METRICS_PORT: '9464' })).toBe('accepted');
  });
});

describe('with METRICS_PORT', () => {
  const perMinute = 20;
  let t: HubApp;
  let serversWhileOpen: number;
  const scrape = async () => {
    const response = await fetch(t.app.metricsUrl!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  beforeAll(async () => {
    const before = tcpServers();
    t = await startHubApp({ METRICS_PORT: '0', RATE_LIMIT_PER_MINUTE: String(perMinute) });
    serversWhileOpen = tcpServers() - before;
    await t.app.db.insert(products).values(demoProducts);
  });
  afterAll(async () => {
    const metricsUrl = t.app.metricsUrl!;
    // The long-polling client leaves a connection open that it never sent a byte on; Node's close would wait for its headers.
    t.app.server.closeAllConnections();
    await t.close();
    // Closing the app closes the metrics listener too.
    await expect(fetch(metricsUrl)).rejects.toThrow();
  });

  it('listens on loopback, on its own port, for /metrics only; the public port has no metrics', async () => {
    expect(serversWhileOpen).toBe(2);
    const url = new URL(t.app.metricsUrl!);
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).not.toBe(t.port);
    expect((await fetch(new URL('/other', url))).status).toBe(404);
    // The public port only has the site's pages (and its 404s) and the API.
    expect(t.app.printRoutes()).not.toContain('metrics');
    for (const path of ['/metrics', '/api/metrics']) expect(await (await fetch(`http://127.0.0.1:${t.port}${path}`)).text(), path).not.toContain('beacon_');
    const text = await scrape();
    // Node's own, from this app's registry.
    expect(sample(text, 'process_cpu_user_seconds_total', {})).toBeGreaterThan(0);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('counts requests and their latency by route pattern, method and status; an unknown path is one label', async () => {
    const health = `/api${system.live.path}`;
    const before = await scrape();
    const count = (text: string, status: string) => sample(text, 'beacon_http_requests_total', { method: 'GET', route: health, status }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await t.call(system.live)).status).toBe(200);
    for (const url of ['/api/nothing/here', '/api/nothing/else?x=1']) expect((await t.app.inject({ url })).statusCode).toBe(404);
    const after = await scrape();
    expect(count(after, '200') - count(before, '200')).toBe(3);
    const latency = (text: string) => sample(text, 'beacon_http_request_duration_seconds_count', { method: 'GET', route: health }) ?? 0;
    expect(latency(after) - latency(before)).toBe(3);
    expect(sample(after, 'beacon_http_request_duration_seconds_bucket', { method: 'GET', route: health, le: '+Inf' })).toBe(latency(after));
    const unmatched = (text: string) => sample(text, 'beacon_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }) ?? 0;
    expect(unmatched(after) - unmatched(before)).toBe(2);
    // The raw URL never becomes a label.
    expect(after).not.toContain('/api/nothing');
  });

  it('counts refusals by the limit that made them: the global rate limit, a route’s own, and a limit of our own', async () => {
    const health = `/api${system.live.path}`;
    const ip = '10.200.0.1';
    const statuses = [];
    for (let i = 0; i <= perMinute; i++) statuses.push((await t.call(system.live, { ip })).status);
    expect(statuses).toEqual([...Array<number>(perMinute).fill(200), 429]);

    // Code sends have a per-address limit of their own: a quarter of IDENTITY_RATE_LIMIT_PER_MINUTE (20).
    const sends = [];
    for (let i = 0; i <= 5; i++) sends.push((await t.call(identity.sendSmsCode, { body: { Phone: `139000099${10 + i}` }, ip })).status);
    expect(sends).toEqual([200, 200, 200, 200, 200, 429]);

    const phone = '13900009901';
    expect((await t.call(identity.sendSmsCode, { body: { Phone: phone } })).status).toBe(200);
    const again = await t.call(identity.sendSmsCode, { body: { Phone: phone } });
    expect(again.status).toBe(429);

    const text = await scrape();
    const sendCode = `/api${identity.sendSmsCode.path}`;
    expect(sample(text, 'beacon_http_requests_total', { method: 'GET', route: health, status: '429' })).toBe(1);
    expect(sample(text, 'beacon_rate_limit_refusals_total', { limit: 'global', route: health })).toBe(1);
    expect(sample(text, 'beacon_rate_limit_refusals_total', { limit: 'route', route: sendCode })).toBe(1);
    expect(sample(text, 'beacon_rate_limit_refusals_total', { limit: 'codeResendWaitSms', route: sendCode })).toBe(1);
    // The six codes that went out, each counted once by its provider and kind.
    expect(sample(text, 'beacon_messages_total', { channel: 'sms', provider: 'dev', kind: 'loginCode', outcome: 'sent' })).toBe(6);
  });

  it('shows hub connections by transport while they are open', async () => {
    const connections = (text: string, transport: string) => sample(text, 'beacon_hub_connections', { transport });
    expect(connections(await scrape(), 'WebSockets')).toBe(0);
    const clients: HubConnection[] = [];
    for (const transport of [HttpTransportType.WebSockets, HttpTransportType.ServerSentEvents, HttpTransportType.LongPolling, HttpTransportType.WebSockets]) {
      const client = hubClient(t.url, transport, () => '');
      await client.start();
      clients.push(client);
    }
    const open = await scrape();
    expect([connections(open, 'WebSockets'), connections(open, 'ServerSentEvents'), connections(open, 'LongPolling')]).toEqual([2, 1, 1]);
    await Promise.all(clients.map((client) => client.stop()));
    await vi.waitFor(
      async () => {
        const closed = await scrape();
        expect([connections(closed, 'WebSockets'), connections(closed, 'ServerSentEvents'), connections(closed, 'LongPolling')]).toEqual([0, 0, 0]);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it('counts payment outcomes by method: paid through the sandbox and from the wallet, declined, canceled, refunded; and the orders’ expiry jobs wait in their queue', async () => {
    const login = await loginBySms(t, '13900009902', 'metrics-device');
    const token = login.AccessToken;
    const newOrder = async (): Promise<Order> => (await t.call(commerceCalls.createOrder, { token, body: { Product: 'cloud-idle-monthly' } })).body.data;
    const scanAndAct = async (order: Order, Action: string) => {
      const pay = await t.call(commerceCalls.pay, { token, params: { key: order.Key }, body: { Method: 'wechatpay' } });
      const prepay = new URL(pay.body.data.CodeUrl!).searchParams.get('pr')!;
      await t.call(paymentSandbox.act, { params: { id: prepay }, body: { Action } });
    };

    const scanned = await newOrder();
    await scanAndAct(scanned, 'approve');
    await scanAndAct(await newOrder(), 'decline');
    const canceled = await newOrder();
    expect((await t.call(commerceCalls.cancel, { token, params: { key: canceled.Key } })).body.data.State).toBe('closed');
    const fromWallet = await newOrder();
    await t.app.db.transaction((tx) => changeBalance(tx, login.User.Id, fromWallet.Price, 'credit', null));
    expect((await t.call(commerceCalls.pay, { token, params: { key: fromWallet.Key }, body: { Method: 'wallet' } })).body.data.Order.State).toBe('fulfilled');
    expect((await runAdmin(t, 'order', 'refund', fromWallet.Key)).data).toMatchObject({ refused: null });

    // The queue's statistics are counted every minute; a test asks for the count now.
    await t.app.jobs.supervise(orderSweepJob);
    const text = await scrape();
    const outcome = (name: string, method: string) => sample(text, 'beacon_payment_outcomes_total', { outcome: name, method });
    expect({
      paidByScan: outcome('paid', 'wechatpay'),
      declined: outcome('failed', 'wechatpay'),
      canceled: outcome('closed', 'none'),
      paidFromWallet: outcome('paid', 'wallet'),
      refunded: outcome('refunded', 'wallet'),
    }).toEqual({ paidByScan: 1, declined: 1, canceled: 1, paidFromWallet: 1, refunded: 1 });
    // The minute's sweep of expired orders is a queue like the others, counted by state.
    expect(sample(text, 'beacon_job_queue_jobs', { queue: orderSweepJob, state: 'failed' })).toBe(0);
  });

  it('counts a job run that fails under its queue', async () => {
    const failures = async () => sample(await scrape(), 'beacon_job_failures_total', { queue: failureCleanupJob }) ?? 0;
    expect(await failures()).toBe(0);
    vi.spyOn(t.app.db, 'delete').mockImplementationOnce(() => {
      throw new Error('disk on fire');
    });
    try {
      await t.app.jobs.send(failureCleanupJob, {});
      await vi.waitFor(async () => expect(await failures()).toBe(1), { timeout: 15_000, interval: 100 });
    } finally {
      vi.restoreAllMocks();
    }
  });
});
