/**
 * API benchmark (`npm run bench:api [-- --duration 10 --connections 50 --warmup 2 --cpu-prof]`):
 * starts the one-process server (`bench/api-server.ts`) in a child process on
 * loopback, logs a user in through the real API, then runs autocannon from
 * this process against three targets:
 *   bare          GET  /bench/bare (a route that only the benchmark adds: Fastify's floor)
 *   encrypted     POST validateregisteremail with a pre-sealed body (RSA-OAEP unwrap + AES per request)
 *   authenticated POST refreshuserinfo with a bearer token (token lookup + user load per request)
 * For each target it also reads, from the server, its CPU time per request
 * (worker threads included) and how late its event loop ran (p99 and max).
 * Before the targets, `openssl speed rsa2048` measures one core's limit for
 * RSA-2048 private-key operations, the cost every encrypted call pays once:
 * the encrypted goals are a share of that limit in requests per second, and
 * the server's CPU per call in those operations' worth (bench/rsa-floor.ts).
 * The authenticated call is held to a share of the bare one in requests per
 * second and in server CPU per request. Every run must have 0 non-2xx answers
 * and 0 errors. Prints a table with the goals and writes bench/results/api.json.
 * `--cpu-prof` has the server write a CPU profile into bench/results/ as it stops.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ApiRoute, RequestOf, ResponseOf } from '#contract/api.ts';
import { encryption } from '#contract/crypto.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { identity, system } from '#contract/identity.ts';
import { createSealer, importPublicKey } from '../src/lib/api/crypto.ts';
import { runBenchmark, serverRequests, startServerChild } from './child-server.ts';
import { watchLoad } from './load.ts';
import { inRsaOps, measureRsaFloor } from './rsa-floor.ts';
import { deploymentEnv, serverExecArgv } from './server-env.ts';

/** The part of autocannon's programmatic API used here (the package ships no types). */
interface CannonOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}
interface CannonResult {
  requests: { mean: number; total: number; sent: number };
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  resets: number;
  statusCodeStats: Record<string, { count: number }>;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: CannonOptions) => Promise<CannonResult>;

const load = watchLoad();
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const warmup = Number(values.warmup);
for (const [name, value] of Object.entries({ duration, connections, warmup })) {
  if (!Number.isFinite(value) || value < 0 || (name !== 'warmup' && value <= 0)) throw new Error(`--${name} must be a positive number`);
}

const goals = { encryptedShareOfRsaLimit: 0.8, encryptedCpuInRsaOps: 1.6, authenticatedShareOfBare: 0.7, authenticatedCpuShareOfBare: 0.7 };

/** What the server child reports (api-server.ts): its CPU time so far, and its event loop's lateness since the last sample. */
interface ServerSample {
  cpu: NodeJS.CpuUsage;
  loopDelayMs: { p50: number; p99: number; max: number };
}
const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'bench', 'results');
const work = mkdtempSync(path.join(tmpdir(), 'bench-api-'));
/** The account the server creates for the benchmark to log in with. */
const account = { phone: '+15550100001', password: 'bench-password-2026' };

async function run(): Promise<void> {
  const floor = measureRsaFloor();
  const rsaLimit = floor.opsPerSecond;
  const { child, ready } = await startServerChild<{ port: number }>(
    path.join(import.meta.dirname, 'api-server.ts'),
    {
      // As a deployment runs: no development stand-ins, and answers not checked against the contract.
      ...deploymentEnv(work, 'memory://'),
      BENCH_ACCOUNT: account.phone,
      BENCH_PASSWORD: account.password,
    },
    { execArgv: serverExecArgv(values['cpu-prof'] ? results : undefined) },
  );
  const { port } = ready;
  const askServer = serverRequests(child);
  const base = `http://127.0.0.1:${port}`;
  const api = (routePath: string) => `${base}/api${routePath}`;
  console.log(`Server (pid ${child.pid}) listening on ${base}`);

  // The public key, and sealed calls exactly as the site makes them.
  const keyAnswer = (await (await fetch(api(system.publicKey.path))).json()) as { code: number; data: { Spki: string } };
  if (keyAnswer.code !== SUCCESS) throw new Error(`GET ${system.publicKey.path} answered ${JSON.stringify(keyAnswer)}`);
  const publicKey = await importPublicKey(keyAnswer.data.Spki);

  async function sealedCall<R extends ApiRoute>(
    route: R,
    body: RequestOf<R>,
  ): Promise<{ status: number; sealed: boolean; envelope: { code: number; message: string; data: ResponseOf<R> } }> {
    const routePath = route.path;
    const sealer = await createSealer(publicKey);
    const response = await fetch(api(routePath), {
      method: 'POST',
      headers: { [encryption.keyHeader]: sealer.wrappedKey, 'content-type': encryption.contentType, 'accept-language': 'en' },
      body: await sealer.seal(JSON.stringify(body)),
    });
    const text = await response.text();
    const sealed = (response.headers.get('content-type') ?? '').startsWith(encryption.contentType);
    return { status: response.status, sealed, envelope: JSON.parse(sealed ? await sealer.open(text) : text) };
  }

  // Log in with the account the server made for the benchmark.
  const login = await sealedCall(identity.loginByPassword, { Account: account.phone, Password: account.password, DeviceId: 'bench-device-0001' });
  if (login.envelope.code !== SUCCESS) throw new Error(`Login failed: ${JSON.stringify(login)}`);
  const token = login.envelope.data.AccessToken;
  console.log(`Logged in as user ${login.envelope.data.User.Id}`);

  // The encrypted target's request, sealed once: the server still unwraps the key and decrypts every time.
  const sealer = await createSealer(publicKey);
  const encryptedHeaders = { [encryption.keyHeader]: sealer.wrappedKey, 'content-type': encryption.contentType, 'accept-language': 'en' };
  const encryptedBody = await sealer.seal(JSON.stringify({ Email: 'bench@example.com' }));
  {
    const response = await fetch(api(identity.validateRegisterEmail.path), { method: 'POST', headers: encryptedHeaders, body: encryptedBody });
    const text = await response.text();
    if (response.status !== 200 || !(response.headers.get('content-type') ?? '').startsWith(encryption.contentType)) {
      throw new Error(`validateregisteremail check: status ${response.status}, content-type ${response.headers.get('content-type')}, body ${text}`);
    }
    const envelope = JSON.parse(await sealer.open(text)) as { code: number };
    if (envelope.code !== SUCCESS) throw new Error(`validateregisteremail check: ${JSON.stringify(envelope)}`);
  }

  const authHeaders = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'en' };
  {
    const response = await fetch(api(identity.refreshUserInfo.path), { method: 'POST', headers: authHeaders, body: '{}' });
    const envelope = (await response.json()) as { code: number };
    if (response.status !== 200 || envelope.code !== SUCCESS) throw new Error(`refreshuserinfo check: status ${response.status}, ${JSON.stringify(envelope)}`);
  }

  const targets = [
    { name: 'bare', method: 'GET' as const, path: '/bench/bare', options: { url: `${base}/bench/bare` } },
    {
      name: 'encrypted',
      method: 'POST' as const,
      path: `/api${identity.validateRegisterEmail.path}`,
      options: { url: api(identity.validateRegisterEmail.path), method: 'POST' as const, headers: encryptedHeaders, body: encryptedBody },
    },
    {
      name: 'authenticated',
      method: 'POST' as const,
      path: `/api${identity.refreshUserInfo.path}`,
      options: { url: api(identity.refreshUserInfo.path), method: 'POST' as const, headers: authHeaders, body: '{}' },
    },
  ];

  /** One autocannon run; any error, timeout or non-2xx answer stops the benchmark. */
  async function cannon(name: string, options: Omit<CannonOptions, 'connections' | 'duration'>, seconds: number): Promise<CannonResult> {
    const result = await autocannon({ ...options, connections, duration: seconds });
    if (result.non2xx !== 0 || result.errors !== 0 || result.timeouts !== 0 || result.requests.total === 0) {
      throw new Error(
        `${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts, ${result.requests.total} requests; status codes ${JSON.stringify(result.statusCodeStats)}`,
      );
    }
    return result;
  }

  const measured: Record<string, CannonResult> = {};
  /** Per target: the server's CPU time per request (ms) and its event loop's lateness over the measured run. */
  const server: Record<string, { cpuMsPerRequest: number; loopDelayMs: ServerSample['loopDelayMs'] }> = {};
  for (const target of targets) {
    if (warmup > 0) {
      process.stdout.write(`Warming up ${target.name} for ${warmup} s … `);
      await cannon(`${target.name} (warm-up)`, target.options, warmup);
    }
    process.stdout.write(`measuring for ${duration} s with ${connections} connections … `);
    const before = await askServer<ServerSample>({ type: 'sample' });
    measured[target.name] = await cannon(target.name, target.options, duration);
    const after = await askServer<ServerSample>({ type: 'sample' });
    const cpuMicros = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
    server[target.name] = { cpuMsPerRequest: Number((cpuMicros / 1000 / measured[target.name].requests.total).toFixed(3)), loopDelayMs: after.loopDelayMs };
    console.log(`${Math.round(measured[target.name].requests.mean)} req/s`);
  }

  const bare = measured.bare.requests.mean;
  const rows = Object.fromEntries(
    targets.map((target) => {
      const result = measured[target.name];
      return [
        target.name,
        {
          method: target.method,
          path: target.path,
          requestsPerSecond: Math.round(result.requests.mean),
          p50Ms: result.latency.p50,
          p90Ms: result.latency.p90,
          p99Ms: result.latency.p99,
          maxMs: result.latency.max,
          ratioToBare: Number((result.requests.mean / bare).toFixed(3)),
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
          serverCpuMsPerRequest: server[target.name].cpuMsPerRequest,
          loopDelayMs: server[target.name].loopDelayMs,
        },
      ];
    }),
  );

  const encryptedShare = measured.encrypted.requests.mean / rsaLimit;
  const encryptedMet = encryptedShare >= goals.encryptedShareOfRsaLimit;
  const authenticatedMet = measured.authenticated.requests.mean >= goals.authenticatedShareOfBare * bare;
  const encryptedCpuInRsaOps = inRsaOps(rows.encrypted.serverCpuMsPerRequest, floor);
  const encryptedCpuMet = encryptedCpuInRsaOps <= goals.encryptedCpuInRsaOps;
  /** The bare call's server CPU per request over the authenticated one's: 1 would be authentication for free. */
  const authenticatedCpuShare = Number((rows.bare.serverCpuMsPerRequest / rows.authenticated.serverCpuMsPerRequest).toFixed(3));
  const authenticatedCpuMet = authenticatedCpuShare >= goals.authenticatedCpuShareOfBare;
  const goalRows = {
    [`encrypted ≥ ${goals.encryptedShareOfRsaLimit * 100} % of one core's RSA limit (${Math.round(rsaLimit).toLocaleString('en')}/s)`]: {
      measured: `${rows.encrypted.requestsPerSecond.toLocaleString('en')} req/s, ${(encryptedShare * 100).toFixed(1)} %`,
      met: encryptedMet,
    },
    [`encrypted server CPU ≤ ${goals.encryptedCpuInRsaOps} RSA private operations (${floor.opMs.toFixed(3)} ms each)`]: {
      measured: `${rows.encrypted.serverCpuMsPerRequest} ms, ${encryptedCpuInRsaOps} operations`,
      met: encryptedCpuMet,
    },
    [`authenticated ≥ ${goals.authenticatedShareOfBare * 100} % of bare`]: {
      measured: `${(rows.authenticated.ratioToBare * 100).toFixed(1)} % of bare`,
      met: authenticatedMet,
    },
    [`authenticated server CPU ≥ ${goals.authenticatedCpuShareOfBare * 100} % of bare's (bare CPU ÷ authenticated CPU)`]: {
      measured: `${rows.bare.serverCpuMsPerRequest} ÷ ${rows.authenticated.serverCpuMsPerRequest} ms, ${(authenticatedCpuShare * 100).toFixed(1)} %`,
      met: authenticatedCpuMet,
    },
  };

  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: { count: availableParallelism(), model: cpus()[0]?.model ?? 'unknown' },
    durationSeconds: duration,
    warmupSeconds: warmup,
    connections,
    rsaPrivateOpsPerSecond: Math.round(rsaLimit),
    rsaPrivateOpMs: Number(floor.opMs.toFixed(4)),
    targets: rows,
    goals: {
      encryptedShareOfRsaLimit: { goal: goals.encryptedShareOfRsaLimit, measured: Number(encryptedShare.toFixed(3)), met: encryptedMet },
      encryptedCpuInRsaOps: { goal: goals.encryptedCpuInRsaOps, measured: encryptedCpuInRsaOps, met: encryptedCpuMet },
      authenticatedShareOfBare: { goal: goals.authenticatedShareOfBare, measured: rows.authenticated.ratioToBare, met: authenticatedMet },
      authenticatedCpuShareOfBare: { goal: goals.authenticatedCpuShareOfBare, measured: authenticatedCpuShare, met: authenticatedCpuMet },
    },
  };

  console.log(`\nAPI benchmark (${connections} connections, ${duration} s per target, loopback, Node ${process.version}, ${availableParallelism()} CPUs)`);
  console.table(
    Object.fromEntries(
      Object.entries(rows).map(([name, row]) => [
        name,
        {
          'requests/s': row.requestsPerSecond,
          'p50 ms': row.p50Ms,
          'p99 ms': row.p99Ms,
          'ratio to bare': row.ratioToBare.toFixed(2),
          'server CPU ms/request': row.serverCpuMsPerRequest,
          'event loop late p99 ms': row.loopDelayMs.p99,
        },
      ]),
    ),
  );
  console.table(Object.fromEntries(Object.entries(goalRows).map(([goal, row]) => [goal, { measured: row.measured, result: row.met ? 'met' : 'NOT MET' }])));

  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, 'api.json'), `${JSON.stringify({ ...report, load: load.end() }, null, 2)}\n`);
  console.log('Wrote bench/results/api.json');
}

await runBenchmark({ title: 'API', work, run });
