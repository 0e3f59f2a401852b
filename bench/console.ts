/**
 * The console's lists on a large shop (issue 49, point 2): on PostgreSQL, a
 * database of its own (`bench_console`, made and dropped here, never the one
 * the URL names) migrated as the server migrates, seeded with set-based SQL
 * (generate_series) with 1,000,000 orders, 100,000 customers, the payments
 * and refunds of those orders and 200,000 audit lines, then VACUUM ANALYZE;
 * each list's first page, a deep page, each sort, each filter and each search
 * timed through the real command path (`runCommand`, as the console and
 * `npm run admin` run it), several times, median and worst beside the load
 * average. Goal: under 200 ms each.
 *
 *   npm run bench:console [-- postgres://user:pass@host:5432/postgres] [--runs 5]
 *
 * Without a URL it uses TEST_POSTGRES_URL. Writes bench/results/console.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { runCommand } from '../server/admin-command.ts';
import { registerCommands } from '../server/command-app.ts';
import { shellActor } from '../server/db/audit.ts';
import { openDatabase } from '../server/db/open.ts';
import { watchLoad } from './load.ts';
import { percentile } from './stats.ts';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '5' } }, allowPositionals: true });
const runs = Number(values.runs);
const given = positionals[0] ?? process.env.TEST_POSTGRES_URL;
if (!given || !/^postgres(ql)?:\/\//.test(given)) {
  console.error('Usage: npm run bench:console -- postgres://user:pass@host:5432/postgres (or set TEST_POSTGRES_URL)');
  process.exit(2);
}
const benchDatabase = 'bench_console';
const admin = new URL(given);
const url = new URL(given);
url.pathname = `/${benchDatabase}`;

const goalMs = 200;
const orderCount = 1_000_000;
const customerCount = 100_000;
const auditCount = 200_000;
/** A day inside the seeded range, and a customer with orders, for the filters. */
const someDay = '2026-06-15';

/**
 * What is timed: each list's first page, a deep page, each sort, each filter and each search, as a command and its
 * arguments exactly as the console sends them. A plain list: another area's entries join it (the dashboard's).
 */
const timed: Array<{ name: string; command: string; args: Record<string, unknown> }> = [
  { name: 'orders: first page', command: 'order list', args: {} },
  { name: 'orders: page 2,000 (offset 49,975)', command: 'order list', args: { page: 2000 } },
  { name: 'orders: oldest first', command: 'order list', args: { dir: 'asc' } },
  { name: 'orders: by price, highest', command: 'order list', args: { sort: 'price' } },
  { name: 'orders: by price, lowest, page 100', command: 'order list', args: { sort: 'price', dir: 'asc', page: 100 } },
  { name: 'orders: by state', command: 'order list', args: { sort: 'state', dir: 'asc' } },
  { name: 'orders: by method', command: 'order list', args: { sort: 'method' } },
  { name: 'orders: state paid', command: 'order list', args: { state: 'paid' } },
  { name: 'orders: state refunded, by price', command: 'order list', args: { state: 'refunded', sort: 'price' } },
  { name: 'orders: method alipay', command: 'order list', args: { method: 'alipay' } },
  { name: 'orders: fulfilled by WeChat Pay', command: 'order list', args: { state: 'fulfilled', method: 'wechatpay' } },
  { name: 'orders: one month', command: 'order list', args: { since: '2026-06-01', until: '2026-06-30' } },
  { name: 'orders: one month, by price', command: 'order list', args: { since: '2026-06-01', until: '2026-06-30', sort: 'price' } },
  { name: 'orders: one day, paid', command: 'order list', args: { since: someDay, until: someDay, state: 'paid' } },
  { name: 'search orders: a customer (id)', command: 'order list', args: { user: '4242' } },
  { name: 'search orders: a customer (e-mail)', command: 'order list', args: { user: 'user4242@example.com' } },
  { name: 'search orders: a number', command: 'order list', args: { key: '20260615000000726900' } },
  { name: 'search orders: a day’s numbers', command: 'order list', args: { key: '20260615' } },
  { name: 'customers: first page', command: 'users list', args: {} },
  { name: 'customers: page 2,000 (offset 49,975)', command: 'users list', args: { page: 2000 } },
  { name: 'customers: by nickname', command: 'users list', args: { sort: 'nickname', dir: 'asc' } },
  { name: 'customers: by e-mail', command: 'users list', args: { sort: 'email', dir: 'asc' } },
  { name: 'customers: by phone', command: 'users list', args: { sort: 'phone' } },
  { name: 'customers: signed up in one month', command: 'users list', args: { since: '2026-06-01', until: '2026-06-30' } },
  { name: 'search customers: an e-mail’s start', command: 'users list', args: { search: 'User4242' } },
  { name: 'search customers: a nickname’s start', command: 'users list', args: { search: 'customer a' } },
  { name: 'search customers: a phone', command: 'users list', args: { search: '13900042424' } },
  { name: 'search customers: an id', command: 'users list', args: { search: '4242' } },
  { name: 'search customers: no match', command: 'users list', args: { search: 'nobody-at-all' } },
  { name: 'audit: first page', command: 'audit list', args: {} },
  { name: 'audit: page 2,000', command: 'audit list', args: { page: 2000 } },
  { name: 'audit: by action', command: 'audit list', args: { sort: 'action', dir: 'asc' } },
  { name: 'audit: by actor', command: 'audit list', args: { sort: 'actor' } },
  { name: 'audit: one action', command: 'audit list', args: { action: 'order refund' } },
  { name: 'audit: one record', command: 'audit list', args: { target: 'user 4242' } },
  { name: 'search audit: an actor', command: 'audit list', args: { actor: 'Operator 7' } },
  { name: 'search audit: an actor, by time', command: 'audit list', args: { actor: 'operator 1', sort: 'at', dir: 'asc' } },
  { name: 'audit: one month', command: 'audit list', args: { since: '2026-06-01', until: '2026-06-30' } },
  ...([7, 30, 90] as const).map((days) => ({ name: `dashboard: ${days} days`, command: 'dashboard', args: { days } })),
];

/** The seed, one statement a table; orders are made over the two years before 2027 in id order (serial ids follow creation). */
const seed = [
  `insert into users (nickname, email, phone, created_at)
   select 'Customer ' || md5(g::text), case when g % 3 = 0 then null else 'user' || g || '@example.com' end,
          case when g % 2 = 0 then '139' || lpad(g::text, 8, '0') end,
          timestamptz '2025-01-01' + (g * interval '1 minute') * (2 * 365 * 1440 / ${customerCount})
   from generate_series(1, ${customerCount}) g`,
  `insert into orders (key, user_id, product, item, price, state, method, expires_at, created_at)
   select to_char(at, 'YYYYMMDD') || lpad(g::text, 12, '0'), 1 + (g::bigint * 7919) % ${customerCount}, 'month',
          '{"Kind":"membership","Product":"month","Months":1,"Amount":null,"Currency":null,"RatePpm":null,"SteamId":null}'::jsonb,
          100 * (1 + (g * 31) % 500), (array['created','paying','paid','fulfilled','closed','failed','refunded'])[1 + g % 7],
          case when g % 7 in (0, 1) then null else (array['wechatpay','alipay','wallet'])[1 + g % 3] end, at + interval '15 minutes', at
   from (select g, timestamptz '2025-01-01' + (g * interval '1 second') * (2 * 365 * 86400 / ${orderCount}) as at
         from generate_series(1, ${orderCount}) g) s`,
  `insert into payments (order_id, method, reference, amount, disposition, created_at)
   select id, method, 'tx-' || id, price, 'applied', created_at + interval '1 minute' from orders where state in ('paid', 'fulfilled', 'refunded')`,
  `insert into refunds (refund_no, order_id, amount, destination, state, actor, created_at, settled_at)
   select key || 'R1', id, price, 'original', 'succeeded', 'operator ' || id % 20, created_at + interval '1 day', created_at + interval '1 day'
   from orders where state = 'refunded'`,
  `insert into audit_log (at, actor, actor_user_id, action, target, before, after)
   select timestamptz '2025-01-01' + (g * interval '1 second') * (2 * 365 * 86400 / ${auditCount}),
          'operator ' || g % 20 || ' (user ' || g % 20 || ', operator)', g % 20,
          (array['order refund','order fulfil','role grant','cdkey create','maintenance on','status set'])[1 + g % 6],
          'user ' || 1 + (g * 13) % ${customerCount}, null, '{"ok":true}'::jsonb
   from generate_series(1, ${auditCount}) g`,
];

async function onAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const load = watchLoad();
await onAdmin(`drop database if exists ${benchDatabase} with (force)`);
await onAdmin(`create database ${benchDatabase}`);
const database = await openDatabase(url.toString());
const raw = new pg.Client({ connectionString: url.toString() });
await raw.connect();
try {
  let started = performance.now();
  for (const statement of seed) await raw.query(statement);
  await raw.query('vacuum analyze');
  console.log(
    `Seeded ${orderCount.toLocaleString('en')} orders, ${customerCount.toLocaleString('en')} customers, their payments and refunds and ${auditCount.toLocaleString('en')} audit lines in ${((performance.now() - started) / 1000).toFixed(1)} s (with VACUUM ANALYZE)`,
  );

  // The commands as a production server runs them (no check of the result against its schema): every module's handlers, on this database.
  const app = Fastify({ logger: false });
  app.decorate('db', database.db);
  app.decorate('config', { NODE_ENV: 'production' } as FastifyInstance['config']);
  await registerCommands(app);
  await app.ready();
  const caller = { actor: shellActor('bench@console', null), locale: 'en' as const, attachment: null };

  // A page and its total in one statement (count(*) over ()) or in two (a separate count, which the lists do): which is faster.
  const oneStatement = async (where: string) => raw.query(`select *, count(*) over () as total from orders ${where} order by id desc limit 25`);
  const twoStatements = async (where: string) =>
    Promise.all([raw.query(`select * from orders ${where} order by id desc limit 25`), raw.query(`select count(*) from orders ${where}`)]);
  const countWays: Array<{ where: string; over: number; separate: number }> = [];
  for (const where of ['', "where state = 'paid'", "where created_at >= '2026-06-01' and created_at < '2026-07-01'"]) {
    const over = await medianOf(() => oneStatement(where));
    const separate = await medianOf(() => twoStatements(where));
    countWays.push({ where: where || '(all)', over, separate });
  }

  const results: Array<{ name: string; medianMs: number; worstMs: number; total: number; load1: number }> = [];
  for (const { name, command, args } of timed) {
    started = performance.now();
    const answer = (await runCommand(app, command, args, caller, null)) as { total?: number };
    const samples: number[] = [performance.now() - started];
    for (let i = 1; i < runs; i++) {
      started = performance.now();
      await runCommand(app, command, args, caller, null);
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    results.push({ name, medianMs: percentile(samples, 50), worstMs: samples[samples.length - 1], total: answer.total ?? -1, load1: loadavg()[0] });
  }
  await app.close();

  const width = Math.max(...results.map((result) => result.name.length));
  console.log(`\n${'LIST'.padEnd(width)}  MEDIAN ms  WORST ms  ROWS IN ALL  LOAD (1 min)  GOAL ${goalMs} ms`);
  for (const result of results)
    console.log(
      `${result.name.padEnd(width)}  ${result.medianMs.toFixed(1).padStart(9)}  ${result.worstMs.toFixed(1).padStart(8)}  ${(result.total < 0 ? '-' : result.total.toLocaleString('en')).padStart(11)}  ${result.load1.toFixed(2).padStart(12)}  ${result.worstMs < goalMs ? 'ok' : 'SLOW'}`,
    );
  console.log(`\nA page and its total (orders, newest first), median of ${runs}:`);
  for (const way of countWays)
    console.log(`  ${way.where.padEnd(70)} count(*) over (): ${way.over.toFixed(1)} ms   separate count: ${way.separate.toFixed(1)} ms`);
  const slow = results.filter((result) => result.worstMs >= goalMs);
  const machine = load.end();
  mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(
    path.join(import.meta.dirname, 'results', 'console.json'),
    `${JSON.stringify({ runs, goalMs, orders: orderCount, customers: customerCount, auditLines: auditCount, results, countWays, load: machine }, null, 2)}\n`,
  );
  console.log(slow.length ? `\n${slow.length} over ${goalMs} ms: ${slow.map((result) => result.name).join('; ')}` : `\nEvery list under ${goalMs} ms.`);
  process.exitCode = slow.length ? 1 : 0;
} finally {
  await raw.end();
  await database.close();
  await onAdmin(`drop database if exists ${benchDatabase} with (force)`);
}

async function medianOf(work: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return percentile(
    samples.sort((a, b) => a - b),
    50,
  );
}
