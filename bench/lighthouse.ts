/**
 * Lighthouse benchmark (`npm run bench:lighthouse [-- --url http://host:port --runs 3]`):
 * audits the home, download, article, FAQ and login pages for performance as
 * a phone on a slow network sees them (Lighthouse's default mobile settings,
 * simulated throttling) and for accessibility, in the system Chromium, and
 * prints each page's median scores with the metrics and bytes. It fails when a
 * page's accessibility score is below 100. Without --url it starts this project's server on the
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
/** Prefixed paths: an unprefixed page may first redirect to the browser's language. */
const pages = { home: '/en', download: '/en/download', article: '/en/article/getting-started', faq: '/en/faq', login: '/en/account/login' };

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
  for (const [name, pagePath] of Object.entries(pages)) {
    const audits: Audit[] = [];
    for (let i = 0; i < runs; i++) audits.push(await audit(`${base}${pagePath}`, debuggingPort));
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
  const inaccessible = Object.entries(results).filter(([, audit]) => audit.accessibility < 100);
  if (inaccessible.length) {
    console.error(`Accessibility below 100: ${inaccessible.map(([name, audit]) => `${name} ${audit.accessibility}`).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  if (started) {
    started.server.kill('SIGTERM');
    rmSync(started.dataDir, { recursive: true, force: true });
  }
}
