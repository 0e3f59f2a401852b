/**
 * Payment benchmark (`npm run bench:pay [-- --provider wechatpay --duration 10 --concurrency 32 --warmup 2 --database file]`):
 * how many orders per second are created and paid through the whole
 * scan-to-pay path of one provider (`--provider wechatpay`, the default, or
 * `alipay`), end to end over loopback. Three processes:
 *   the server   `bench/pay-server.ts`: the real app as deployed (production,
 *                PAYMENT_PROVIDER=wechatpay or alipay), on PGlite in a temporary folder
 *                (`--database file`, the default), in-memory PGlite (`memory`) or
 *                a throwaway PostgreSQL (`postgres`: tests/setup/postgres.ts, or
 *                TEST_POSTGRES_URL), with `--concurrency` logged-in customers;
 *   the sandbox  `bench/pay-sandbox.ts`: the development payment sandbox playing
 *                WeChat Pay or Alipay, whose merchant account or app the
 *                server is configured with;
 *   this one     the customers and their phones.
 * Each customer loops: create an order (a sealed call, as the site seals it),
 * start paying it (the server asks the sandbox for a code, signed both ways),
 * and approve it on the sandbox as the phone would — with Alipay, scan it
 * first, as the trade exists at Alipay only once scanned — (the sandbox sends
 * the server a signed notification — WeChat Pay's sealed too — which it
 * verifies, opens and applies).
 * An order counts when the approval returns, which is after the server
 * acknowledged the notification. Over the measured `--duration` (after a
 * `--warmup` of the same kind) it reports orders per second, p50 and p99, and
 * the CPU time per order of the server, the sandbox and this process, each
 * read with process.cpuUsage() in its own process before and after: steadier
 * than throughput on a machine that others share; and the database statements
 * the server sent per order (bench/query-count.ts). At the end the server must
 * hold every acknowledged order fulfilled, with exactly one payment. Prints a
 * table with the goals and writes bench/results/pay.json (pay-alipay.json for
 * Alipay). The CPU goal is in RSA-2048 private operations' worth, measured by
 * `openssl speed` at the start of the same run (bench/rsa-floor.ts), so it
 * means the same on a slower or busier machine. `--cpu-prof` has the
 * server write a CPU profile into bench/results/ as it stops.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { commerceCalls } from '#contract/commerce.ts';
import { alipaySandbox, paymentSandbox } from '#contract/dev.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { httpCaller } from '../tests/integration/api/harness.ts';
import { freePort } from '../tests/setup/free-port.ts';
import { runBenchmark, serverRequests, startServerChild } from './child-server.ts';
import { databaseKinds, startDatabase, type BenchDatabase, type DatabaseKind } from './database.ts';
import { watchLoad } from './load.ts';
import { inRsaOps, measureRsaFloor } from './rsa-floor.ts';
import { deploymentEnv, serverExecArgv } from './server-env.ts';
import { profileShares, type Kind } from './profile-split.ts';
import { percentile } from './stats.ts';

const load = watchLoad();
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '2' },
    database: { type: 'string', default: 'file' },
    'cpu-prof': { type: 'boolean', default: false },
    provider: { type: 'string', default: 'wechatpay' },
  },
});
const provider = values.provider;
if (provider !== 'wechatpay' && provider !== 'alipay') throw new Error('--provider is wechatpay or alipay');
const duration = Number(values.duration);
const concurrency = Number(values.concurrency);
const warmup = Number(values.warmup);
if (!(duration > 0) || !(Number.isInteger(concurrency) && concurrency > 0) || !(warmup >= 0)) {
  throw new Error('--duration must be positive, --concurrency a positive whole number, --warmup not negative');
}
if (!(databaseKinds as readonly string[]).includes(values.database)) throw new Error(`--database is one of ${databaseKinds.join(', ')}`);
const databaseKind = values.database as DatabaseKind;

/**
 * The throughput goal is for the embedded database, which a fresh machine runs; the server's CPU per paid order, in
 * RSA-2048 private operations' worth, is held to 14 on PostgreSQL and 28 on PGlite (in a folder, or in memory).
 */
const goal = { ordersPerSecond: 500, serverCpuInRsaOps: { postgres: 14, file: 28, memory: 28 } satisfies Record<DatabaseKind, number> };
const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'bench', 'results');
const work = mkdtempSync(path.join(tmpdir(), 'bench-pay-'));

/** Stops the database the server runs on, once started. */
let stopDatabase: BenchDatabase['stop'] = async () => {};

/**
 * What each paid order must cost the server at least, in ms of CPU, each part measured in this run:
 * its RSA-2048 private operations (the two sealed calls' key unwrapping and the signature of the
 * request to the provider), its statements at a bare statement's cost on the same database, and
 * the HTTP requests the server answers (create, pay, the notification) or makes (to the provider)
 * at a bare Fastify request's cost.
 */
const perOrder = { rsaOps: 3, requestsAnswered: 3, requestsMade: 1 };
interface Floor {
  rsa: number;
  statements: number;
  requestsAnswered: number;
  /** A request made counted at a bare request answered's cost. */
  requestsMade: number;
  total: number;
}
/** Set by a `--cpu-prof` run once measured, for the split printed when the server has stopped and written its profiles. */
let profiled: { pid: number; fromUs: number; toUs: number; serverMsPerOrder: number; floor: Floor } | undefined;

/** The bare request's CPU on the server, in ms per call of `GET /bench/bare`, made 16 at a time after a warm-up. */
async function bareRequestMs(origin: string, askServer: ReturnType<typeof serverRequests>): Promise<number> {
  const batch = () => Promise.all(Array.from({ length: 16 }, async () => (await fetch(`${origin}/bench/bare`)).arrayBuffer()));
  for (let i = 0; i < 50; i++) await batch();
  const batches = 250;
  const before = await askServer<NodeJS.CpuUsage>({ type: 'cpu' });
  for (let i = 0; i < batches; i++) await batch();
  const after = await askServer<NodeJS.CpuUsage>({ type: 'cpu' });
  return (after.user + after.system - before.user - before.system) / 1000 / (batches * 16);
}

async function run(): Promise<void> {
  const floor = measureRsaFloor();
  const database = await startDatabase(databaseKind, work);
  stopDatabase = database.stop;
  const serverEnv = deploymentEnv(work, database.url);

  // The sandbox first: the server is configured with the merchant account it plays.
  const sandbox = await startServerChild<{ port: number; settings: Record<string, string> }>(path.join(import.meta.dirname, 'pay-sandbox.ts'), {
    ...process.env,
    NODE_ENV: 'development',
    PAYMENT_PROVIDER: 'sandbox',
    DATABASE_URL: 'memory://',
    DEMO_DATA: 'false',
    DATA_DIR: path.join(work, 'sandbox-data'),
    SITE_DIR: serverEnv.SITE_DIR,
    LOG_LEVEL: 'warn',
    // Every phone's approval comes from 127.0.0.1.
    RATE_LIMIT_PER_MINUTE: '100000000',
    BENCH_PROVIDER: provider,
    BENCH_PROVIDER_FILES: path.join(work, provider),
  });
  const sandboxOrigin = `http://127.0.0.1:${sandbox.ready.port}`;
  console.log(`Payment sandbox (pid ${sandbox.child.pid}, development mode) listening on ${sandboxOrigin}`);

  // The notification URL names the server's port, so the server is given a free one rather than taking any.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServerChild<{ port: number; users: Array<{ id: number; token: string }> }>(
    path.join(import.meta.dirname, 'pay-server.ts'),
    {
      ...serverEnv,
      ...sandbox.ready.settings,
      ...(provider === 'alipay'
        ? { ALIPAY_NOTIFY_URL: `${origin}/api${commerceCalls.notifyAlipay.path}` }
        : { WECHATPAY_NOTIFY_URL: `${origin}/api${commerceCalls.notify.path}` }),
      // The sandbox listens on loopback, which production reaches only where a setting names it.
      OUTBOUND_ALLOWED_NETWORKS: '127.0.0.1',
      HOST: '127.0.0.1',
      PORT: String(port),
      BENCH_USERS: String(concurrency),
    },
    { execArgv: serverExecArgv(values['cpu-prof'] ? results : undefined) },
  );
  console.log(`Server (pid ${server.child.pid}, production) listening on ${origin}`);
  const askServer = serverRequests(server.child);
  const askSandbox = serverRequests(sandbox.child);

  // The customers' calls to the server and their phones' to the sandbox, over HTTP, sealed where the route is.
  const shop = await httpCaller(origin);
  const phone = await httpCaller(sandboxOrigin);
  const must = <T extends { body: { code: number } }>(what: string, reply: T): T => {
    if (reply.body.code !== SUCCESS) throw new Error(`${what} answered ${JSON.stringify(reply.body)}`);
    return reply;
  };

  /** One order, from creation to an acknowledged payment; answers its number. */
  async function buyOne(token: string): Promise<string> {
    const created = must('create', await shop(commerceCalls.createOrder, { token, body: { Product: 'cloud-idle-monthly' } }));
    const key = created.body.data.Key;
    const paying = must('pay', await shop(commerceCalls.pay, { token, params: { key }, body: { Method: provider } }));
    if (provider === 'alipay') {
      must('scan', await phone(alipaySandbox.act, { params: { id: key }, body: { Action: 'scan' } }));
      const approved = must('approve', await phone(alipaySandbox.act, { params: { id: key }, body: { Action: 'approve' } }));
      if (approved.body.data.State !== 'TRADE_SUCCESS') throw new Error(`the sandbox left ${key} ${approved.body.data.State}`);
      return key;
    }
    const prepay = new URL(paying.body.data.CodeUrl!).searchParams.get('pr')!;
    const approved = must('approve', await phone(paymentSandbox.act, { params: { id: prepay }, body: { Action: 'approve' } }));
    if (approved.body.data.State !== 'SUCCESS') throw new Error(`the sandbox left ${key} ${approved.body.data.State}`);
    return key;
  }

  /** Every order acknowledged, the warm-up's too: the end check covers them all. */
  const acknowledged: string[] = [];

  async function buyFor(seconds: number): Promise<{ orders: number; latencies: number[]; elapsed: number }> {
    const latencies: number[] = [];
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      server.ready.users.map(async (user) => {
        while (performance.now() < until) {
          const begun = performance.now();
          acknowledged.push(await buyOne(user.token));
          latencies.push(performance.now() - begun);
        }
      }),
    );
    return { orders: latencies.length, latencies, elapsed: (performance.now() - started) / 1000 };
  }

  if (warmup > 0) {
    process.stdout.write(`Warming up for ${warmup} s … `);
    const warm = await buyFor(warmup);
    console.log(`${Math.round(warm.orders / warm.elapsed)} orders/s`);
  }
  process.stdout.write(`Measuring for ${duration} s with ${concurrency} customers … `);
  const cpu = () =>
    Promise.all([
      askServer<NodeJS.CpuUsage & { statements: number; monotonicUs: number }>({ type: 'cpu' }),
      askSandbox<NodeJS.CpuUsage>({ type: 'cpu' }),
      process.cpuUsage(),
    ]);
  const cpuBefore = await cpu();
  const measured = await buyFor(duration);
  const cpuAfter = await cpu();
  const ordersPerSecond = measured.orders / measured.elapsed;
  /** The server's database statements per order (its background jobs' included), BEGIN and COMMIT counted. */
  const statementsPerOrder = Number(((cpuAfter[0].statements - cpuBefore[0].statements) / measured.orders).toFixed(1));
  console.log(`${Math.round(ordersPerSecond)} orders/s`);
  /** Each process's CPU time (user and system) over the measured run, per order in ms and as a share of one core. */
  const [serverCpu, sandboxCpu, benchmarkCpu] = cpuBefore.map((before, i) => {
    const micros = cpuAfter[i].user + cpuAfter[i].system - before.user - before.system;
    return { msPerOrder: Number((micros / 1000 / measured.orders).toFixed(2)), percentOfOneCore: Math.round(micros / 1e4 / measured.elapsed) };
  });

  // Every acknowledged order is paid, by one payment, and the membership applied.
  const held = await askServer<{ states: Array<{ state: string; n: number }>; payments: number }>({ type: 'orders', keys: acknowledged });
  const fulfilled = held.states.find((row) => row.state === 'fulfilled')?.n ?? 0;
  if (fulfilled !== acknowledged.length || held.payments !== acknowledged.length) {
    throw new Error(`${acknowledged.length} orders acknowledged, ${fulfilled} fulfilled, ${held.payments} payments: ${JSON.stringify(held.states)}`);
  }

  // The floors, after the measured run so as not to disturb it.
  process.stdout.write('Measuring the floors: a bare statement … ');
  const { msPerStatement } = await askServer<{ msPerStatement: number }>({ type: 'statementFloor' });
  process.stdout.write(`${(msPerStatement * 1000).toFixed(0)} µs of server CPU; a bare request … `);
  const msPerRequest = await bareRequestMs(origin, askServer);
  console.log(`${(msPerRequest * 1000).toFixed(0)} µs`);
  const floorParts = {
    rsa: perOrder.rsaOps * floor.opMs,
    statements: statementsPerOrder * msPerStatement,
    requestsAnswered: perOrder.requestsAnswered * msPerRequest,
    requestsMade: perOrder.requestsMade * msPerRequest,
  };
  const orderFloor: Floor = { ...floorParts, total: Object.values(floorParts).reduce((sum, ms) => sum + ms, 0) };
  if (values['cpu-prof']) {
    profiled = {
      pid: server.child.pid!,
      fromUs: cpuBefore[0].monotonicUs,
      toUs: cpuAfter[0].monotonicUs,
      serverMsPerOrder: serverCpu.msPerOrder,
      floor: orderFloor,
    };
  }

  const sorted = measured.latencies.sort((a, b) => a - b);
  const met = ordersPerSecond >= goal.ordersPerSecond;
  const cpuGoal = goal.serverCpuInRsaOps[databaseKind];
  const serverCpuInRsaOps = inRsaOps(serverCpu.msPerOrder, floor);
  const cpuMet = serverCpuInRsaOps <= cpuGoal;
  const result = {
    date: new Date().toISOString(),
    provider,
    node: process.version,
    cpus: { count: availableParallelism(), model: cpus()[0]?.model ?? 'unknown' },
    database: database.record,
    concurrency,
    warmupSeconds: warmup,
    seconds: Number(measured.elapsed.toFixed(2)),
    orders: measured.orders,
    ordersPerSecond: Math.round(ordersPerSecond),
    latencyMs: { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(percentile(sorted, 100)) },
    cpu: { server: serverCpu, sandbox: sandboxCpu, benchmark: benchmarkCpu },
    statementsPerOrder,
    checked: { acknowledged: acknowledged.length, fulfilled, payments: held.payments },
    rsaPrivateOpMs: Number(floor.opMs.toFixed(4)),
    floorMs: {
      bareStatement: Number(msPerStatement.toFixed(4)),
      bareRequest: Number(msPerRequest.toFixed(4)),
      perOrder: Object.fromEntries(Object.entries(orderFloor).map(([part, ms]) => [part, Number(ms.toFixed(3))])),
    },
    serverCpuInRsaOps,
    goal: { ordersPerSecond: goal.ordersPerSecond, serverCpuInRsaOps: cpuGoal, database: database.label, met, cpuMet },
  };
  console.log(`\nPayment benchmark (${provider}, ${concurrency} customers, ${duration} s, loopback, Node ${process.version}, ${availableParallelism()} CPUs)`);
  console.table({
    [`${database.label}, ${concurrency} at once`]: {
      'orders/s': result.ordersPerSecond,
      orders: result.orders,
      'p50 ms': result.latencyMs.p50,
      'p99 ms': result.latencyMs.p99,
      'statements/order': statementsPerOrder,
      [`goal ≥ ${goal.ordersPerSecond}/s`]: met ? 'met' : 'NOT met',
    },
  });
  console.table(
    Object.fromEntries(
      Object.entries(result.cpu).map(([name, usage]) => [name, { 'CPU ms per order': usage.msPerOrder, 'share of one core': `${usage.percentOfOneCore} %` }]),
    ),
  );
  console.log(
    `Server CPU per paid order: ${serverCpu.msPerOrder} ms = ${serverCpuInRsaOps} RSA-2048 private operations (${floor.opMs.toFixed(3)} ms each, openssl speed, this run); goal ≤ ${cpuGoal} on ${database.label}: ${cpuMet ? 'met' : 'NOT met'}.`,
  );
  console.log(
    `Its floor (this run): ${perOrder.rsaOps} RSA operations ${floorParts.rsa.toFixed(2)} ms + ${statementsPerOrder} statements × ${(msPerStatement * 1000).toFixed(0)} µs = ${floorParts.statements.toFixed(2)} ms + ${perOrder.requestsAnswered + perOrder.requestsMade} requests × ${(msPerRequest * 1000).toFixed(0)} µs = ${(floorParts.requestsAnswered + floorParts.requestsMade).toFixed(2)} ms: ${orderFloor.total.toFixed(2)} ms; measured ${(serverCpu.msPerOrder / orderFloor.total).toFixed(1)} × the floor.`,
  );
  console.log(
    `Checked: ${acknowledged.length} orders acknowledged (warm-up included), ${fulfilled} fulfilled, ${held.payments} payments (none missing, none doubled).`,
  );
  mkdirSync(results, { recursive: true });
  const file = provider === 'alipay' ? 'pay-alipay.json' : 'pay.json';
  writeFileSync(path.join(results, file), `${JSON.stringify({ ...result, load: load.end() }, null, 2)}\n`);
  console.log(`Wrote bench/results/${file}`);
}

/** With `--cpu-prof`: the server's CPU per order by kind of work (bench/profile-split.ts), beside the floors of the kinds that have one. */
function printProfileSplit(): void {
  if (!profiled) return;
  const { pid, fromUs, toUs, serverMsPerOrder, floor: orderFloor } = profiled;
  // Typed by the split's own kinds, so a kind renamed there cannot lose its floor here unnoticed.
  const floors: Partial<Record<Kind, number>> = {
    'RSA (the pool)': orderFloor.rsa,
    statements: orderFloor.statements,
    'HTTP in (Fastify, node:http)': orderFloor.requestsAnswered,
    'HTTP out (undici)': orderFloor.requestsMade,
  };
  console.log(`\nWhere the server's ${serverMsPerOrder} ms of CPU per order went (profile of the measured run; shares of its sampled busy time):`);
  console.table(
    Object.fromEntries(
      profileShares(results, pid, fromUs, toUs).map(({ kind, share }) => [
        kind,
        {
          'ms per order': Number((share * serverMsPerOrder).toFixed(2)),
          share: `${(share * 100).toFixed(1)} %`,
          'floor ms': floors[kind] === undefined ? '' : Number(floors[kind].toFixed(2)),
        },
      ]),
    ),
  );
}

await runBenchmark({
  title: 'Payment',
  work,
  run,
  afterStop: async () => {
    await stopDatabase();
    printProfileSplit();
  },
});
