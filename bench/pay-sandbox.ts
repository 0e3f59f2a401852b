/**
 * The payment sandbox of the payment benchmark (`bench/pay.ts` forks this
 * file): the app in development mode with PAYMENT_PROVIDER=sandbox, which
 * plays WeChat Pay at /api/dev/wechatpay (server/modules/dev/wechatpay/) and
 * Alipay at /api/dev/alipay (server/modules/dev/alipay/) for the production
 * server the benchmark starts in another process. The sandbox's keys are made
 * in this process (server/services/wechatpay-sandbox.ts, alipay-sandbox.ts),
 * so it hands them over as an operator would configure a shop for its
 * merchant account or app: for the provider BENCH_PROVIDER names, it writes
 * the shop's private key and the provider's public key as PEM files into
 * BENCH_PROVIDER_FILES and sends `{ port, settings }` to the parent over the
 * IPC channel, `settings` being the server's PAYMENT_PROVIDER and WECHATPAY_*
 * or ALIPAY_* settings (all but the notification URL, which is the server's).
 * Then it answers the parent's requests:
 *   { type: 'cpu' }  → the CPU time this process has used (process.cpuUsage())
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { alipaySandboxMerchantSettings } from '../server/services/alipay-sandbox.ts';
import { sandboxMerchantSettings } from '../server/services/wechatpay-sandbox.ts';
import { answerParent, closeWithParent } from './child-server.ts';

if (!process.send) throw new Error('bench/pay-sandbox.ts is started by bench/pay.ts (it needs the IPC channel)');
const files = process.env.BENCH_PROVIDER_FILES;
if (!files) throw new Error('BENCH_PROVIDER_FILES names the folder for the key files');
const provider = process.env.BENCH_PROVIDER;
if (provider !== 'wechatpay' && provider !== 'alipay') throw new Error('BENCH_PROVIDER is wechatpay or alipay');

const app = await buildApp(loadConfig({ ...process.env }));
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

const origin = `http://127.0.0.1:${port}`;
const settings =
  provider === 'alipay' ? { PAYMENT_PROVIDER: 'alipay', ...alipaySandboxMerchantSettings(files, origin) } : sandboxMerchantSettings(files, origin);

answerParent<{ type: 'cpu' }>(() => process.cpuUsage());

closeWithParent(app);

process.send({ port, settings });
