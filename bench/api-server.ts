/**
 * The server side of the API benchmark (`bench/api.ts` forks this file): the
 * real app, configured from the environment the benchmark passes, with the
 * benchmark's account (BENCH_ACCOUNT, BENCH_PASSWORD) — a production server has
 * no development outbox to log in through — plus one bare route that exists
 * only here (`GET /bench/bare`) as the baseline. It listens on 127.0.0.1 on a
 * free port and sends `{ port }` to the parent over the IPC channel (or prints
 * it as a JSON line when started by hand). Over IPC it then answers
 * `{ type: 'sample' }` with the CPU time this process has used (its worker
 * threads' included) and how late its event loop ran timers since the last
 * sample (perf_hooks.monitorEventLoopDelay, in ms).
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { users } from '../server/db/schema.ts';
import { hashPassword } from '../server/modules/identity/passwords.ts';
import { answerParent, closeWithParent } from './child-server.ts';

const app = await buildApp(loadConfig({ ...process.env }));
const { BENCH_ACCOUNT: phone, BENCH_PASSWORD: password } = process.env;
if (!phone || !password) throw new Error('BENCH_ACCOUNT and BENCH_PASSWORD name the account the benchmark logs in with');
await app.db.insert(users).values({ phone, nickname: 'Benchmark', passwordHash: await hashPassword(password) });
app.get('/bench/bare', async () => ({ ok: true }));
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

closeWithParent(app);

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const ms = (nanoseconds: number) => Number((nanoseconds / 1e6).toFixed(2));
if (process.send) {
  answerParent<{ type: 'sample' }>(() => {
    const sample = { cpu: process.cpuUsage(), loopDelayMs: { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) } };
    loopDelay.reset();
    return sample;
  });
  process.send({ port });
} else console.log(JSON.stringify({ port }));
