/**
 * nginx as deploy/nginx sets it up (site.conf, api-proxy.conf and
 * upstream.conf as they are, the build's maps), in front of two instances
 * that stop answering: both stopped, one stopped, one frozen with SIGSTOP and
 * woken again. The instances are small Node processes (./instance-double.ts)
 * answering in the API's envelope at once, so the timings are nginx's alone.
 * The reference deployment's own frozen-instance step (real instances under
 * load) is deployment.spec.ts's.
 */
import { expect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '#contract/errors.ts';
import { hubPath } from '#contract/realtime.ts';
import { message } from '../../server/i18n/messages.ts';
import { freePort } from '../setup/free-port.ts';
import { nginxBinary, nginxFolder, siteOnPort } from './deployment.ts';
import { nginxTimings } from './nginx-settings.ts';

test.describe.configure({ mode: 'serial' });

const root = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'beacon-failover-'));
const nginxDir = path.join(work, 'nginx');
const step = (text: string) => console.log(`  · ${text}`);

/** What a double printed for a request it read. */
interface Seen {
  method: string;
  path: string;
  at: number;
}

/** An instance stand-in, as a process the test stops, freezes and wakes. */
class Double {
  readonly name: string;
  readonly port: number;
  readonly address: string;
  private child: ChildProcess | null = null;
  /** Every request it read, in order, those read after waking included. */
  readonly seen: Seen[] = [];

  constructor(name: string, port: number) {
    this.name = name;
    this.port = port;
    this.address = `127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'instance-double.ts'), this.name, String(this.port)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.child = child;
    const lines = createInterface({ input: child.stdout! });
    await new Promise<void>((resolve, reject) => {
      child.once('exit', () => reject(new Error(`instance ${this.name} ended while starting`)));
      lines.on('line', (line) => {
        const said = JSON.parse(line) as { listening?: string; method?: string; path?: string };
        if (said.listening) resolve();
        else this.seen.push({ method: said.method!, path: said.path!, at: Date.now() });
      });
    });
  }

  /** Ends it at once (frozen or not): its port refuses connections. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const ended = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await ended;
  }

  /** SIGSTOP: the kernel still takes connections for it (its backlog), nothing answers them. */
  freeze(): void {
    this.child!.kill('SIGSTOP');
  }

  wake(): void {
    this.child!.kill('SIGCONT');
  }

  /** How many requests for `path` it read. */
  count(method: string, path: string): number {
    return this.seen.filter((each) => each.method === method && each.path === path).length;
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** When it was sent and how long it took, in ms since the epoch and ms. */
  sentAt: number;
  took: number;
}

let origin: URL;
let nginx: ChildProcess;
let doubles: [Double, Double];

/** One request through nginx on a connection of its own, as a customer's browser or the site's client sends it. */
function send(method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const sentAt = Date.now();
  return new Promise((resolve, reject) => {
    const body = method === 'POST' ? '{}' : undefined;
    const outgoing = request(
      {
        host: origin.hostname,
        port: origin.port,
        method,
        path: url,
        agent: false,
        headers: { connection: 'close', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), sentAt, took: Date.now() - sentAt }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The instance that answered `/api/who`. */
const answeredBy = (answer: Answer) => (JSON.parse(answer.body) as { data: { instance: string } }).data.instance;

/** The instance nginx sends this machine's requests to now (its address hash picks one while both answer). */
async function home(): Promise<Double> {
  const answer = await send('GET', '/api/who');
  expect(answer.status).toBe(200);
  return doubles.find((each) => each.name === answeredBy(answer))!;
}

/** Waits until nginx takes both instances again (it tries one it left out after fail_timeout). */
async function bothBack(): Promise<void> {
  await sleep(nginxTimings.failTimeoutMs);
  await expect.poll(async () => (await send('GET', '/api/who')).status, { timeout: nginxTimings.failTimeoutMs * 2 }).toBe(200);
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  doubles = [new Double('A', await freePort()), new Double('B', await freePort())];
  for (const each of doubles) await each.start();
  const port = await freePort();
  origin = new URL(`http://127.0.0.1:${port}`);
  nginxFolder(
    nginxDir,
    siteOnPort({
      folder: nginxDir,
      port,
      dist: path.join(root, 'dist'),
      logFormat: '$remote_addr "$request_method $request_uri" $status upstream=$upstream_addr $upstream_status id=$request_id',
    }),
  );
  // The upstream as deploy/ has it, with the doubles' ports.
  const upstream = readFileSync(path.join(root, 'deploy/nginx/upstream.conf'), 'utf8');
  expect(upstream).toContain('server 127.0.0.1:4001 ');
  writeFileSync(path.join(nginxDir, 'upstream.conf'), upstream.replace('127.0.0.1:4001', doubles[0].address).replace('127.0.0.1:4002', doubles[1].address));
  nginx = spawn(nginxBinary, ['-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  for (;;) {
    if (nginx.exitCode !== null) throw new Error('nginx ended while starting (see its output above)');
    if ((await send('GET', '/api/who').catch(() => null))?.status === 200) break;
    await sleep(100);
  }
});

test.afterAll(async () => {
  nginx?.kill('SIGTERM');
  for (const each of doubles ?? []) await each.stop();
});

test('answers /api with the API’s 503 envelope in the reader’s language when no instance answers, GET and POST alike', async () => {
  for (const each of doubles) await each.stop();
  // The site sends its page's locale; a browser's own request (a quick login's return) its list of languages.
  const cases: Array<[string | undefined, Parameters<typeof message>[0]]> = [
    ['ja', 'ja'],
    [undefined, 'zh-CN'],
    ['fr-FR,ko;q=0.8,en;q=0.5', 'ko'],
    ['zh-HK', 'zh-TW'],
    ['zh-Hans-HK', 'zh-CN'],
    ['en-GB,en;q=0.9', 'en'],
    ['de', 'zh-CN'],
  ];
  const accessLog = () => readFileSync(path.join(nginxDir, 'access.log'), 'utf8');
  for (const [language, locale] of cases) {
    for (const [method, url] of [
      ['GET', '/api/who'],
      ['POST', '/api/who'],
      ['GET', `/api${hubPath}?id=gone`],
    ] as const) {
      const answer = await send(method, url, language ? { 'accept-language': language } : {});
      const what = `${method} ${url} with Accept-Language ${language ?? '(none)'}`;
      expect(answer.status, what).toBe(503);
      expect(answer.headers['content-type'], what).toBe('application/json; charset=utf-8');
      expect(answer.headers['retry-after'], what).toBe(String(nginxTimings.retryAfterMs / 1000));
      expect(answer.headers['cache-control'], what).toBe('no-store');
      expect(answer.headers['content-security-policy'], what).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options'], what).toBe('nosniff');
      const envelope = JSON.parse(answer.body) as { code: number; message: string; data: unknown };
      // The reference is nginx's id of the request, which its log names.
      const id = /[0-9a-f]{32}/.exec(envelope.message)?.[0];
      expect(id, what).toBeDefined();
      expect(envelope, what).toEqual({ code: ErrorCode.Unavailable, message: message(locale, 'instancesUnavailable', { id: id! }), data: null });
      // nginx logs a request once it has answered it.
      await expect.poll(accessLog, { message: what }).toContain(`id=${id}`);
    }
  }
  step(`no instance: GET, POST and the hub answered 503 with the envelope in ${cases.map(([, locale]) => locale).join(', ')}`);
  // The messages live in the build's maps, which are not served.
  expect((await send('GET', '/.nginx-maps.conf')).status).toBe(404);

  for (const each of doubles) await each.start();
  await bothBack();
});

test('passes an instance’s own 502 and 503 answers through as they are, and tries no other instance with them', async () => {
  const first = await home();
  const other = doubles.find((each) => each !== first)!;
  const paid = await send('POST', '/api/provider-failed', { 'accept-language': 'ja' });
  expect(paid.status).toBe(502);
  expect(paid.headers['x-instance']).toBe(first.name);
  expect(JSON.parse(paid.body)).toEqual({ code: 4031, message: `The payment service is not responding right now (${first.name}).`, data: null });
  const down = await send('GET', '/api/database-down');
  expect(down.status).toBe(503);
  expect(down.headers['retry-after']).toBe('2');
  expect(JSON.parse(down.body)).toEqual({ code: 503, message: `The database is not answering (${first.name}).`, data: null });
  expect(other.count('POST', '/api/provider-failed') + other.count('GET', '/api/database-down')).toBe(0);
  // Neither answer left the instance out: the next request goes to it.
  expect(await home()).toBe(first);
  step(`instance ${first.name}'s own 502 and 503 envelopes passed through unchanged, and were not sent to ${other.name}`);
});

test('sends every request to the other instance at once when one is stopped, POST included, and takes it back once it is started', async () => {
  const stopped = await home();
  const other = doubles.find((each) => each !== stopped)!;
  await stopped.stop();
  for (const method of ['GET', 'POST'] as const) {
    const answer = await send(method, '/api/who');
    expect(answer.status, method).toBe(200);
    expect(answeredBy(answer), method).toBe(other.name);
    expect(answer.took, method).toBeLessThan(1000);
  }
  await stopped.start();
  const started = Date.now();
  // nginx's clock for this counts whole seconds: fail_timeout and up to one more.
  await expect.poll(async () => (await home()).name, { intervals: [250], timeout: nginxTimings.failTimeoutMs + 3000 }).toBe(stopped.name);
  step(`instance ${stopped.name} stopped: GET and POST went to ${other.name} at once; started again, it answered again after ${Date.now() - started} ms`);
});

test('leaves a frozen instance out after the first read timeout, never sends a POST it may have read to another (but a hub negotiation), and takes it back once it wakes', async () => {
  test.setTimeout(120_000);
  const frozen = await home();
  const other = doubles.find((each) => each !== frozen)!;
  const posts = () => [frozen.count('POST', '/api/who'), other.count('POST', '/api/who')];
  const [frozenPosts, otherPosts] = posts();
  const freezeMs = 20_000;
  frozen.freeze();
  const frozenAt = Date.now();
  const post = send('POST', '/api/who', { 'accept-language': 'ru' });
  const negotiation = send('POST', `/api${hubPath}/negotiate?negotiateVersion=1`);
  // A customer's GETs, four a second, through the freeze and a few seconds after it.
  const gets: Array<Promise<Answer>> = [];
  let woken: number | undefined;
  while (Date.now() < frozenAt + freezeMs + 2 * nginxTimings.failTimeoutMs) {
    if (!woken && Date.now() >= frozenAt + freezeMs) {
      frozen.wake();
      woken = Date.now();
    }
    gets.push(send('GET', '/api/who'));
    await sleep(250);
  }
  const answers = await Promise.all(gets);
  const since = (at: number) => `${((at - frozenAt) / 1000).toFixed(1)} s`;

  // No GET failed, and none waited longer than one read timeout (then the other instance answered it, or the frozen one on waking).
  expect(answers.map((each) => each.status)).toEqual(answers.map(() => 200));
  const slowest = Math.max(...answers.map((each) => each.took));
  expect(slowest).toBeLessThan(nginxTimings.apiReadTimeoutMs + 2000);
  // nginx left the frozen instance out once the first request to it timed out: every GET sent from then on until it woke was answered at once by the other.
  const promptlyElsewhere = (each: Answer) => answeredBy(each) === other.name && each.took < 1000;
  const failover = answers.find((each) => each.sentAt > frozenAt && promptlyElsewhere(each))!;
  expect(failover.sentAt - frozenAt).toBeLessThan(nginxTimings.apiReadTimeoutMs + 1000);
  const untilWake = answers.filter((each) => each.sentAt >= failover.sentAt && each.sentAt < woken! - 250);
  expect(untilWake.filter((each) => !promptlyElsewhere(each))).toEqual([]);
  // Once awake, it takes its share again a fail_timeout (counted in whole seconds) after the last request that timed out
  // on it — those it was still working through on waking may, each starting the fail_timeout again — and a request to try it.
  const back = answers.find((each) => each.sentAt > woken! && answeredBy(each) === frozen.name);
  expect(back, 'a GET answered by the woken instance').toBeDefined();
  expect(back!.sentAt - woken!).toBeLessThan(nginxTimings.failTimeoutMs + 3500);

  // The POST it had read was not sent to the other instance: its customer got the envelope, in Russian.
  const posted = await post;
  expect(posted.status).toBe(503);
  expect((JSON.parse(posted.body) as { message: string }).message).toMatch(/^Сервис сейчас не отвечает/);
  expect(posts()[1]).toBe(otherPosts);
  // The hub's negotiation, safe to send twice, went to the other instance instead.
  const negotiated = await negotiation;
  expect(negotiated.status).toBe(200);
  expect(JSON.parse(negotiated.body)).toMatchObject({ connectionId: `${other.name}-connection` });
  expect(negotiated.took).toBeLessThan(nginxTimings.apiReadTimeoutMs + 2000);
  // Awake, an instance reads what the kernel kept for it, the POST nginx gave up on too: it may still carry it out.
  await sleep(500);
  const readOnWaking = posts()[0] > frozenPosts;
  step(
    `instance ${frozen.name} frozen for ${freezeMs / 1000} s: new GETs answered at once by ${other.name} from ${since(failover.sentAt)}; ` +
      `the ${answers.filter((each) => each.sentAt < failover.sentAt).length} GETs sent before waited ${nginxTimings.apiReadTimeoutMs / 1000} s at most ` +
      `(slowest ${(slowest / 1000).toFixed(1)} s), none failed; the POST answered 503 after ${(posted.took / 1000).toFixed(1)} s, sent to no other instance ` +
      `(the frozen one ${readOnWaking ? 'read it on waking' : 'never read it'}); a hub negotiation went to ${other.name} after ${(negotiated.took / 1000).toFixed(1)} s; woken, it answered again ${((back!.sentAt - woken!) / 1000).toFixed(1)} s later`,
  );
});

test('keeps the hub’s long-lived requests open past the ordinary read timeout', async () => {
  test.setTimeout(nginxTimings.apiReadTimeoutMs + 60_000);
  const hold = nginxTimings.apiReadTimeoutMs + 2000;
  const poll = await send('GET', `/api${hubPath}?hold=${hold}`);
  expect(poll.status).toBe(200);
  expect(poll.took).toBeGreaterThanOrEqual(hold);
  step(`a long poll answered after ${(poll.took / 1000).toFixed(1)} s went through (ordinary calls are cut at ${nginxTimings.apiReadTimeoutMs / 1000} s)`);
});
