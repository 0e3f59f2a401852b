/**
 * The outside providers of a production deployment, played locally for the
 * deployment test, each speaking the protocol the instances speak to the real one:
 *
 * - an SMS gateway (server/services/messenger.ts `gatewayMessenger`): it takes
 *   `POST /` with the shared secret and keeps the messages, which the test reads
 *   back with `GET /messages?to=<phone>`, as a phone would receive them;
 * - WeChat Pay's APIv3: the payment sandbox of a development server of this
 *   project (server/modules/dev/wechatpay), which checks the merchant's
 *   signatures, signs its answers and sends signed, sealed notifications; its
 *   credentials are written to `<folder>` as the PEM files and values the
 *   instances' WECHATPAY_* settings name. The test pays as the customer's phone
 *   would, through the sandbox's call for the order.
 *
 * `node tests/production/providers.ts <folder>` prints one JSON line with the
 * addresses and settings once both answer, and runs until it is stopped.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { sandboxMerchantSettings } from '../../server/services/wechatpay-sandbox.ts';

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
console.log(
  JSON.stringify({
    smsGateway: origin(sms),
    wechatpayApi: `${origin(wechatpay.server)}/api`,
    settings: {
      SMS_PROVIDER: 'http',
      SMS_GATEWAY_URL: `${origin(sms)}/`,
      SMS_GATEWAY_SECRET: smsSecret,
      ...sandboxMerchantSettings(folder, origin(wechatpay.server)),
    },
  }),
);

process.on('SIGTERM', () => {
  sms.close();
  void wechatpay.close().then(() => process.exit(0));
});
