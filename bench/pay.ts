/**
 * Payment benchmark (`npm run bench:pay [-- --duration 10 --concurrency 32 --database file]`):
 * how many orders per second are created and paid through the whole
 * scan-to-pay path. The real app runs in this process on embedded PGlite in a
 * temporary folder (`--database memory` for in-memory PGlite, `postgres` for a
 * throwaway PostgreSQL from tests/setup/postgres.ts or TEST_POSTGRES_URL),
 * listening on loopback, with the payment sandbox as the provider. Each of `--concurrency`
 * workers loops: create an order (sealed API call), start paying it (the
 * server asks the sandbox for a code over loopback, signed both ways), and
 * approve it as the phone would (the sandbox sends a signed, sealed
 * notification to the server, which verifies, opens and applies it). An order
 * counts when the approval returns, which is after the server acknowledged the
 * notification. At the end every counted order must be paid with exactly one
 * payment. Prints a table and writes bench/results/pay.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { count, eq, inArray } from 'drizzle-orm';
import { commerceCalls } from '#contract/commerce.ts';
import { paymentSandbox } from '#contract/dev.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { orders, payments, products } from '../server/db/schema.ts';
import { demoProducts } from '../server/modules/commerce/catalogue.ts';
import { loginBySms } from '../tests/integration/api/codes.ts';
import { startApp } from '../tests/integration/api/harness.ts';
import { startPostgres } from '../tests/setup/postgres.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '2' },
    database: { type: 'string', default: 'file' },
  },
});
const duration = Number(values.duration);
const concurrency = Number(values.concurrency);
const warmup = Number(values.warmup);
if (!(duration > 0) || !(concurrency > 0) || !(warmup >= 0)) throw new Error('--duration and --concurrency must be positive, --warmup not negative');
const databases = { file: 'PGlite (folder)', memory: 'PGlite (memory)', postgres: 'PostgreSQL' } as const;
if (!(values.database in databases)) throw new Error(`--database is one of ${Object.keys(databases).join(', ')}`);
const database = values.database as keyof typeof databases;

/** The goal is for the embedded database, which a fresh machine runs. */
const goal = { ordersPerSecond: 500 };
const folder = mkdtempSync(path.join(tmpdir(), 'beacon-bench-pay-'));
const postgres = database === 'postgres' ? await startPostgres() : null;
const databaseUrl = postgres?.url ?? (database === 'file' ? `file://${path.join(folder, 'db')}` : 'memory://');
const t = await startApp({ DATABASE_URL: databaseUrl, SITE_URL: 'https://beacon.test', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });

try {
  await t.app.db.insert(products).values(demoProducts);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const users: Array<{ AccessToken: string }> = [];
  for (let i = 0; i < concurrency; i++) users.push(await loginBySms(t, `1392000${String(i).padStart(4, '0')}`, `device-${i}`));

  const must = <T extends { body: { code: number } }>(what: string, reply: T): T => {
    if (reply.body.code !== SUCCESS) throw new Error(`${what} answered ${JSON.stringify(reply.body)}`);
    return reply;
  };

  /** One order, from creation to an acknowledged payment; answers its number. */
  async function buyOne(token: string): Promise<string> {
    const created = must('create', await t.call(commerceCalls.createOrder, { token, body: { Product: 'cloud-idle-monthly' } }));
    const key = created.body.data.Key;
    const paying = must('pay', await t.call(commerceCalls.pay, { token, params: { key }, body: { Method: 'wechatpay' } }));
    const prepay = new URL(paying.body.data.CodeUrl!).searchParams.get('pr')!;
    const approved = must('approve', await t.call(paymentSandbox.act, { params: { id: prepay }, body: { Action: 'approve' } }));
    if (approved.body.data.State !== 'SUCCESS') throw new Error(`the sandbox left ${key} ${approved.body.data.State}`);
    return key;
  }

  async function run(seconds: number): Promise<{ keys: string[]; latencies: number[]; elapsed: number }> {
    const keys: string[] = [];
    const latencies: number[] = [];
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      users.map(async (user) => {
        while (performance.now() < until) {
          const begun = performance.now();
          keys.push(await buyOne(user.AccessToken));
          latencies.push(performance.now() - begun);
        }
      }),
    );
    return { keys, latencies, elapsed: (performance.now() - started) / 1000 };
  }

  if (warmup > 0) await run(warmup);
  const measured = await run(duration);

  // Every counted order is paid, by one payment, and the membership applied.
  const states = await t.app.db.select({ state: orders.state, n: count() }).from(orders).where(inArray(orders.key, measured.keys)).groupBy(orders.state);
  const [{ n: paymentRows }] = await t.app.db
    .select({ n: count() })
    .from(payments)
    .innerJoin(orders, eq(payments.orderId, orders.id))
    .where(inArray(orders.key, measured.keys));
  const fulfilled = states.find((row) => row.state === 'fulfilled')?.n ?? 0;
  if (fulfilled !== measured.keys.length || paymentRows !== measured.keys.length) {
    throw new Error(`${measured.keys.length} orders acknowledged, ${fulfilled} fulfilled, ${paymentRows} payments: ${JSON.stringify(states)}`);
  }

  const sorted = [...measured.latencies].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: availableParallelism(), model: cpus()[0]?.model ?? 'unknown' },
    database: databases[database],
    concurrency,
    seconds: Number(measured.elapsed.toFixed(2)),
    orders: measured.keys.length,
    ordersPerSecond: Math.round(measured.keys.length / measured.elapsed),
    latencyMs: { p50: Math.round(at(0.5)), p99: Math.round(at(0.99)), max: Math.round(sorted.at(-1) ?? 0) },
    goal,
  };
  console.table({
    [`${result.database}, ${concurrency} at once`]: {
      'orders/s': result.ordersPerSecond,
      orders: result.orders,
      'p50 ms': result.latencyMs.p50,
      'p99 ms': result.latencyMs.p99,
      [`goal ≥ ${goal.ordersPerSecond}/s`]: result.ordersPerSecond >= goal.ordersPerSecond ? 'met' : 'NOT met',
    },
  });
  console.log(`Checked: ${result.orders} orders acknowledged, ${result.orders} fulfilled, ${result.orders} payments (none doubled).`);
  const results = path.resolve(import.meta.dirname, 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, 'pay.json'), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await t.close();
  await postgres?.stop();
  rmSync(folder, { recursive: true, force: true });
}
