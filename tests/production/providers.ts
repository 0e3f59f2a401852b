/**
 * The outside providers of a production deployment, played locally for the
 * deployment test, each speaking the protocol the instances speak to the real one:
 *
 * - an SMS gateway (server/messages/http-gateway.ts `gatewayMessenger`): it takes
 *   `POST /` with the shared secret and keeps the messages, which the test reads
 *   back with `GET /messages?to=<phone>`, as a phone would receive them;
 * - WeChat Pay's APIv3 and Alipay's gateway: the payment sandboxes of a
 *   development server of this project (server/modules/dev/wechatpay and
 *   alipay), which check the shop's signatures, sign their answers and send
 *   signed notifications; their credentials are written to `<folder>` as the
 *   PEM files and values the instances' WECHATPAY_* and ALIPAY_* settings
 *   name. The test pays as the customer's phone would, through the sandbox's
 *   call for the order.
 *
 * The instances reach both through a proxy each (tests/faulty-proxy.ts), which
 * can be told at run time to make the provider slow, fail or reset the
 * connection, separately for the SMS gateway (which the deployment test also
 * names as the e-mail gateway) and for WeChat Pay's API:
 *
 *     POST <control>/faults {"wechatpay": "slow" | "fail" | "reset" | "garbage" | null, "sms": …, "slowMs": 30000}
 *
 * sets the faults named (null: none; `slow` answers after `slowMs`, 30 s unless
 * set) and answers them all; `GET <control>/faults` answers them too. The
 * test's own reads (`smsGateway`'s messages, `wechatpayApi`'s sandbox calls)
 * reach the doubles directly and meet no fault.
 *
 * `node tests/production/providers.ts <folder>` prints one JSON line with the
 * addresses (`control` among them) and settings once both answer, and runs
 * until it is stopped.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { alipaySandboxMerchantSettings } from '../../server/services/alipay-sandbox.ts';
import { sandboxMerchantSettings } from '../../server/services/wechatpay-sandbox.ts';
import { faults, faultyProxy } from '../faulty-proxy.ts';

const folder = path.resolve(process.argv[2] ?? 'providers');
mkdirSync(folder, { recursive: true });

const smsSecret = 'deployment-test-sms-gateway-secret';
const received: Array<{ to: string; text: string }> = [];
const sms = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://gateway');
  if (request.method === 'GET' && url.pathname === '/messages') {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(received.filter((message) => message.to === url.searchParams.get('to'))));
    return;
  }
  if (request.method !== 'POST' || request.headers.authorization !== `Bearer ${smsSecret}`) {
    response.statusCode = 401;
    response.end();
    return;
  }
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const { to, text } = JSON.parse(body) as { to: string; text: string };
    received.push({ to, text });
    response.statusCode = 204;
    response.end();
  });
});
await new Promise<void>((resolve) => sms.listen(0, '127.0.0.1', resolve));

// A development server in memory, of which only the payment sandbox is used.
const wechatpay = await buildApp(
  loadConfig({ NODE_ENV: 'development', DATABASE_URL: 'memory://', DATA_DIR: path.join(folder, 'data'), LOG_LEVEL: 'error', DEMO_DATA: 'false' }),
);
await wechatpay.listen({ port: 0, host: '127.0.0.1' });

const origin = (server: { address(): AddressInfo | string | null }) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// What the instances call, each behind a proxy that the control server turns faulty.
const proxies = { sms: await faultyProxy(origin(sms)), wechatpay: await faultyProxy(origin(wechatpay.server)) };
const Fault = z.enum(faults).nullable().optional();
const Faults = z.strictObject({ sms: Fault, wechatpay: Fault, slowMs: z.int().positive().optional() });
const state = () => ({ sms: proxies.sms.fault, wechatpay: proxies.wechatpay.fault, slowMs: proxies.sms.slowMs });
const control = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const answer = (status: number, payload: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    if (request.url !== '/faults') return answer(404, { error: 'only /faults is here' });
    if (request.method === 'GET') return answer(200, state());
    if (request.method !== 'POST') return answer(405, { error: 'GET or POST /faults' });
    let asked: z.infer<typeof Faults>;
    try {
      asked = Faults.parse(JSON.parse(body));
    } catch (error) {
      return answer(400, { error: `{"sms"|"wechatpay": ${faults.join('|')}|null, "slowMs": N}: ${(error as Error).message}` });
    }
    for (const name of ['sms', 'wechatpay'] as const) if (asked[name] !== undefined) proxies[name].fault = asked[name];
    for (const proxy of Object.values(proxies)) proxy.slowMs = asked.slowMs ?? proxy.slowMs;
    answer(200, state());
  });
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));

console.log(
  JSON.stringify({
    smsGateway: origin(sms),
    wechatpayApi: `${origin(wechatpay.server)}/api`,
    control: origin(control),
    settings: {
      SMS_PROVIDER: 'http',
      SMS_GATEWAY_URL: `${proxies.sms.origin}/`,
      SMS_GATEWAY_SECRET: smsSecret,
      ...sandboxMerchantSettings(folder, proxies.wechatpay.origin),
      // Alipay beside WeChat Pay, reached directly (the faults are tried on WeChat Pay's API).
      PAYMENT_PROVIDER: 'wechatpay,alipay',
      ...alipaySandboxMerchantSettings(folder, origin(wechatpay.server)),
    },
  }),
);

process.on('SIGTERM', () => {
  control.close();
  sms.close();
  void Promise.all([proxies.sms.close(), proxies.wechatpay.close(), wechatpay.close()]).then(() => process.exit(0));
});
