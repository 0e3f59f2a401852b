/**
 * Raffle registration benchmark (`npm run bench:raffle [-- --duration 10 --users 1000 --warmup 2 --database file --cpu-prof]`):
 * how many registrations per second one server takes with 1,000 users
 * registering at once. The server (`bench/raffle-server.ts`: the real app as
 * deployed, with the benchmark's accounts) runs in a child process on loopback,
 * on PGlite in a temporary folder (`--database file`, the default), in-memory
 * PGlite (`memory`) or a throwaway PostgreSQL (`postgres`: tests/setup/postgres.ts,
 * or TEST_POSTGRES_URL). Before anything is timed, the server opens a session
 * for each user, as a login does, and hands over their tokens. Then each user
 * goes through raffles in order, registering once in each (POST
 * /komaasharu/raffle/:id/registration, plain JSON with its bearer token, as
 * the site sends it) and moving on to the next as soon as it is answered; the
 * server makes each raffle (asked over IPC) when the first user reaches it, so
 * all users keep registering for the whole run, most of them in the same
 * raffle at once. It counts registrations answered per second, with p50 and
 * p99 latency and the CPU each process used, after a `--warmup` of the same
 * kind (on raffles of its own). Any refused or failed call fails the run, and
 * so does any raffle (the warm-up's too) whose numbers are not exactly
 * 1..count, whose count is not the number of registrations acknowledged in
 * it, or where a user holds a number other than the one they were told.
 * `--cpu-prof` has the server write a CPU profile into bench/results/ as it
 * stops. Prints a table with the goal and writes bench/results/raffle.json.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathOf } from '#contract/api.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { raffleCalls } from '#contract/raffle.ts';
import { runBenchmark, serverRequests, startServerChild } from './child-server.ts';
import { databaseKinds, startDatabase, type BenchDatabase, type DatabaseKind } from './database.ts';
import { watchLoad } from './load.ts';
import { deploymentEnv, serverExecArgv } from './server-env.ts';
import { percentile } from './stats.ts';

const load = watchLoad();
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    users: { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '2' },
    database: { type: 'string', default: 'file' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const userCount = Number(values.users);
const warmup = Number(values.warmup);
if (!(duration > 0) || !(Number.isInteger(userCount) && userCount > 0) || !(warmup >= 0)) {
  throw new Error('--duration must be positive, --users a positive whole number, --warmup not negative');
}
if (!(databaseKinds as readonly string[]).includes(values.database)) throw new Error(`--database is one of ${databaseKinds.join(', ')}`);
const databaseKind = values.database as DatabaseKind;

/** The goal is for the embedded database, which a fresh machine runs. */
const goal = { registrationsPerSecond: 1_000 };
const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'bench', 'results');
const work = mkdtempSync(path.join(tmpdir(), 'bench-raffle-'));

/** Stops the database the server runs on, once started. */
let stopDatabase: BenchDatabase['stop'] = async () => {};

async function run(): Promise<void> {
  const database = await startDatabase(databaseKind, work);
  stopDatabase = database.stop;
  mkdirSync(results, { recursive: true });
  const { child, ready } = await startServerChild<{ port: number; users: Array<{ id: number; token: string }> }>(
    path.join(import.meta.dirname, 'raffle-server.ts'),
    { ...deploymentEnv(work, database.url), BENCH_USERS: String(userCount) },
    { execArgv: serverExecArgv(values['cpu-prof'] ? results : undefined) },
  );
  const ask = serverRequests(child);
  const origin = `http://127.0.0.1:${ready.port}`;
  console.log(`Server (pid ${child.pid}) listening on ${origin}`);
  // Each user on a keep-alive connection of its own, as a browser keeps one: a next request waits for it rather than opening another.
  const users = ready.users.map((user) => ({ ...user, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) }));

  /** One registration as the site sends it: plain JSON with the bearer token; answers the status and the envelope. */
  const register = (raffleId: number, user: (typeof users)[number]) =>
    new Promise<{ status: number; envelope: { code: number; message: string; data: unknown } }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: ready.port,
          method: 'POST',
          path: `/api${pathOf(raffleCalls.registration.path, { id: raffleId })}`,
          agent: user.agent,
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'accept-language': 'en', 'content-length': '2' },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            try {
              resolve({ status: response.statusCode ?? 0, envelope: JSON.parse(text) });
            } catch {
              reject(new Error(`The registration answered ${response.statusCode} with something that is not JSON: ${text.slice(0, 200)}`));
            }
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end('{}');
    });

  /** What each raffle acknowledged: user id → the number they were told. */
  const acknowledged = new Map<number, Map<number, number>>();
  /** Every raffle the server made, the warm-up's too. */
  const raffleIds: number[] = [];

  /** Every user registers in raffle after raffle until `seconds` are up; the server makes each raffle (and the next, ahead of time) when the first user reaches it. */
  async function registerFor(seconds: number): Promise<{ registrations: number; raffles: number; latencies: number[]; elapsed: number }> {
    const made: Array<Promise<number>> = [];
    const make = (index: number) => (made[index] ??= ask<{ raffleId: number }>({ type: 'raffle' }).then(({ raffleId }) => raffleId));
    const raffleAt = (index: number) => {
      make(index + 1).catch(() => {});
      return make(index);
    };
    const latencies: number[] = [];
    let failed = false;
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      users.map(async (user) => {
        try {
          for (let index = 0; !failed && performance.now() < until; index++) {
            const raffleId = await raffleAt(index);
            const begun = performance.now();
            const { status, envelope } = await register(raffleId, user);
            latencies.push(performance.now() - begun);
            if (status !== 200 || envelope.code !== SUCCESS) throw new Error(`User ${user.id} in raffle ${raffleId}: ${status} ${JSON.stringify(envelope)}`);
            // The answer as the contract has it.
            const { Number: number } = raffleCalls.registration.response.parse(envelope.data);
            const told = acknowledged.get(raffleId) ?? new Map<number, number>();
            acknowledged.set(raffleId, told);
            if (told.has(user.id)) throw new Error(`User ${user.id} was registered in raffle ${raffleId} twice`);
            told.set(user.id, number);
          }
        } catch (error) {
          failed = true;
          throw error;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const ids = await Promise.all(made);
    raffleIds.push(...ids);
    // The last one made ahead of time may have had no user.
    return { registrations: latencies.length, raffles: ids.filter((id) => acknowledged.has(id)).length, latencies, elapsed };
  }

  if (warmup > 0) {
    process.stdout.write(`Warming up for ${warmup} s … `);
    const warm = await registerFor(warmup);
    console.log(`${Math.round(warm.registrations / warm.elapsed).toLocaleString('en')} registrations/s`);
  }
  process.stdout.write(`Measuring for ${duration} s with ${userCount.toLocaleString('en')} users … `);
  const cpuBefore = { server: await ask<NodeJS.CpuUsage>({ type: 'cpu' }), client: process.cpuUsage() };
  const measured = await registerFor(duration);
  /** The share of one core each process used while measured. */
  const cpuShare = (before: NodeJS.CpuUsage, after: NodeJS.CpuUsage) =>
    Math.round((after.user + after.system - before.user - before.system) / 1e4 / measured.elapsed);
  const cpu = { server: cpuShare(cpuBefore.server, await ask<NodeJS.CpuUsage>({ type: 'cpu' })), client: cpuShare(cpuBefore.client, process.cpuUsage()) };
  const perSecond = measured.registrations / measured.elapsed;
  for (const user of users) user.agent.destroy();
  console.log(`${Math.round(perSecond).toLocaleString('en')} registrations/s`);

  // Every raffle, the warm-up's too: numbers 1..count, the count the raffle's own and what was acknowledged, each user's number the one they were told.
  const { raffles } = await ask<{ raffles: Array<{ id: number; entrants: number; entries: Array<[number | null, number]> }> }>({ type: 'entries', raffleIds });
  const problems: string[] = [];
  if (raffles.length !== raffleIds.length) problems.push(`The server made ${raffleIds.length} raffles and finds ${raffles.length}`);
  let entries = 0;
  for (const raffle of raffles) {
    const told = acknowledged.get(raffle.id) ?? new Map<number, number>();
    entries += raffle.entries.length;
    const gap = raffle.entries.findIndex(([, number], i) => number !== i + 1);
    if (gap !== -1) problems.push(`raffle ${raffle.id}: entry ${gap + 1} of ${raffle.entries.length} has number ${raffle.entries[gap][1]}`);
    if (raffle.entrants !== raffle.entries.length)
      problems.push(`raffle ${raffle.id}: counts ${raffle.entrants} entrants and holds ${raffle.entries.length} entries`);
    if (told.size !== raffle.entries.length) problems.push(`raffle ${raffle.id}: ${told.size} registrations acknowledged, ${raffle.entries.length} entries`);
    const wrong = raffle.entries.filter(([userId, number]) => userId === null || told.get(userId) !== number);
    if (wrong.length > 0)
      problems.push(
        `raffle ${raffle.id}: ${wrong.length} entries not as acknowledged, e.g. user ${wrong[0][0]} holds ${wrong[0][1]}, was told ${told.get(wrong[0][0] ?? -1)}`,
      );
  }
  const acknowledgedCount = [...acknowledged.values()].reduce((sum, told) => sum + told.size, 0);
  if (problems.length > 0) throw new Error(`The registrations do not add up:\n  ${problems.slice(0, 10).join('\n  ')}`);

  const sorted = measured.latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const met = perSecond >= goal.registrationsPerSecond;
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: { count: availableParallelism(), model: cpus()[0]?.model ?? 'unknown' },
    database: database.record,
    users: userCount,
    warmupSeconds: warmup,
    seconds: Number(measured.elapsed.toFixed(2)),
    registrations: measured.registrations,
    raffles: measured.raffles,
    registrationsPerSecond: Math.round(perSecond),
    latencyMs: { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(percentile(sorted, 100)) },
    cpuPercentOfOneCore: cpu,
    checked: { raffles: raffles.length, entries, acknowledged: acknowledgedCount },
    goal: { ...goal, database: database.label, met },
  };
  console.log(`\nRaffle benchmark (${userCount.toLocaleString('en')} users, ${duration} s, loopback, Node ${process.version}, ${availableParallelism()} CPUs)`);
  console.table({
    [`${database.label}, ${userCount.toLocaleString('en')} at once`]: {
      'registrations/s': result.registrationsPerSecond,
      registrations: result.registrations,
      raffles: result.raffles,
      'p50 ms': result.latencyMs.p50,
      'p99 ms': result.latencyMs.p99,
      'server CPU': `${cpu.server} %`,
      'client CPU': `${cpu.client} %`,
      [`goal ≥ ${goal.registrationsPerSecond.toLocaleString('en')}/s`]: met ? 'met' : 'NOT met',
    },
  });
  console.log(
    `Checked: ${raffles.length} raffles (warm-up included) hold ${entries.toLocaleString('en')} entries numbered 1..count with no gap or repeat, ` +
      `each raffle's count its entries and its ${acknowledgedCount.toLocaleString('en')} acknowledged registrations, every number the one its user was told.`,
  );
  writeFileSync(path.join(results, 'raffle.json'), `${JSON.stringify({ ...result, load: load.end() }, null, 2)}\n`);
  console.log('Wrote bench/results/raffle.json');
  if (values['cpu-prof']) console.log('The server writes its CPU profile (CPU.*.cpuprofile) into bench/results/ as it stops');
}

await runBenchmark({ title: 'Raffle', work, run, afterStop: () => stopDatabase() });
