/**
 * Lighthouse benchmark (`npm run bench:lighthouse [-- --url http://host:port --runs 3]`):
 * audits four content pages and five pages with an island for performance as
 * a phone on a slow network sees them (Lighthouse's default mobile settings,
 * simulated throttling) and for accessibility, in the system Chromium, and
 * prints each page's median scores with the metrics and bytes. It fails when a
 * page misses its performance goal, its accessibility is below 100 or its
 * layout shift above 0.02. Without --url it starts this project's server on the
 * built site (`npm run build` first) on a free port. Writes bench/results/lighthouse.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { freePort } from '../tests/setup/free-port.ts';
import { watchLoad } from './load.ts';

const load = watchLoad();
const { values } = parseArgs({ options: { url: { type: 'string' }, runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');

const root = path.resolve(import.meta.dirname, '..');
/**
 * The pages audited, by prefixed path (an unprefixed page may first redirect
 * to the browser's language), and the performance score each must reach:
 * 100 on content pages, 95 on pages with an island, which load React.
 */
const pages: Record<string, { path: string; performance: number }> = {
  home: { path: '/en', performance: 100 },
  download: { path: '/en/download', performance: 100 },
  article: { path: '/en/article/getting-started', performance: 100 },
  faq: { path: '/en/faq', performance: 100 },
  login: { path: '/en/account/login', performance: 95 },
  raffle: { path: '/en/raffle', performance: 95 },
  accelerate: { path: '/en/accelerate', performance: 95 },
  recharge: { path: '/en/recharge/steam', performance: 95 },
  plugin: { path: '/en/plugin/authenticator', performance: 95 },
};
/** Every page must reach these whatever its kind. */
const goals = { accessibility: 100, cumulativeLayoutShift: 0.02 };

/** This project's server on the built site, on a free port; resolves once it listens. */
async function startServer(): Promise<{ url: string; server: ChildProcess; dataDir: string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-'));
  const server = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: 'memory://', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => String(chunk).includes('running at') && resolve());
    server.once('exit', (code) => reject(new Error(`The server exited (code ${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}`, server, dataDir };
}

interface Audit {
  score: number;
  accessibility: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
  transferKiB: number;
  scriptTransferKiB: number;
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

async function audit(url: string, port: number): Promise<Audit> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { audits, categories } = result.lhr;
  const resources = (audits['resource-summary'].details as unknown as { items: Array<{ resourceType: string; transferSize: number }> }).items;
  const transfer = (type: string) => (resources.find((item) => item.resourceType === type)?.transferSize ?? 0) / 1024;
  return {
    score: Math.round((categories.performance.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility.score ?? 0) * 100),
    firstContentfulPaintMs: Math.round(audits['first-contentful-paint'].numericValue ?? 0),
    largestContentfulPaintMs: Math.round(audits['largest-contentful-paint'].numericValue ?? 0),
    totalBlockingTimeMs: Math.round(audits['total-blocking-time'].numericValue ?? 0),
    cumulativeLayoutShift: Number((audits['cumulative-layout-shift'].numericValue ?? 0).toFixed(3)),
    transferKiB: Number(transfer('total').toFixed(1)),
    scriptTransferKiB: Number(transfer('script').toFixed(1)),
  };
}

const started = values.url ? null : await startServer();
const base = values.url ?? started!.url;
const debuggingPort = await freePort();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [`--remote-debugging-port=${debuggingPort}`, '--no-sandbox', '--disable-gpu'],
});
try {
  const results: Record<string, Audit> = {};
  for (const [name, page] of Object.entries(pages)) {
    const audits: Audit[] = [];
    for (let i = 0; i < runs; i++) audits.push(await audit(`${base}${page.path}`, debuggingPort));
    // The run with the median score, so its metrics belong together.
    const score = median(audits.map((a) => a.score));
    results[name] = audits.find((a) => a.score === score)!;
  }
  console.log(`\nLighthouse performance and accessibility (mobile, median of ${runs} by performance) at ${base}`);
  console.table(results);
  mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(
    path.join(root, 'bench', 'results', 'lighthouse.json'),
    `${JSON.stringify({ date: new Date().toISOString(), base, runs, pages: results, load: load.end() }, null, 2)}\n`,
  );
  console.log('Wrote bench/results/lighthouse.json');
  const missed = Object.entries(results).flatMap(([name, audit]) => {
    const problems: string[] = [];
    if (audit.score < pages[name].performance) problems.push(`performance ${audit.score} (goal ${pages[name].performance})`);
    if (audit.accessibility < goals.accessibility) problems.push(`accessibility ${audit.accessibility} (goal ${goals.accessibility})`);
    if (audit.cumulativeLayoutShift > goals.cumulativeLayoutShift)
      problems.push(`layout shift ${audit.cumulativeLayoutShift} (goal at most ${goals.cumulativeLayoutShift})`);
    return problems.map((problem) => `${name}: ${problem}`);
  });
  for (const problem of missed) console.error(`Below the goal: ${problem}`);
  if (missed.length) process.exitCode = 1;
} finally {
  await browser.close();
  if (started) {
    started.server.kill('SIGTERM');
    rmSync(started.dataDir, { recursive: true, force: true });
  }
}
