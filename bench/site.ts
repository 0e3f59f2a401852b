/**
 * Site build benchmark (`npm run bench:site`): copies the real content, adds
 * N generated articles per locale and builds into a temporary folder as
 * `npm run build` does, one step after the other: Astro (in this process),
 * then Pagefind's index and the precompressed copies (each in a child process,
 * as the build script runs them). Reports each step's wall time, pages per
 * second and peak memory of the Astro step, and the gzipped JavaScript each
 * page type loads. Prints tables, writes bench/results/site.json, and exits
 * non-zero, naming each page and what it broke, when a page goes over its
 * JavaScript budget (bench/README.md).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { watchLoad } from './load.ts';

const load = watchLoad();
const { values } = parseArgs({ options: { articles: { type: 'string', default: '1000' }, keep: { type: 'boolean', default: false } } });
const perLocale = Number(values.articles);
const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'bench-site-'));
const contentDir = path.join(work, 'content');
const outDir = path.join(work, 'dist');

const paragraphs = [
  'Beacon Toolkit keeps the Steam store and community reachable by resolving names over DNS-over-HTTPS and connecting to edge addresses that answer.',
  'The account switcher remembers every login you allow it to keep, and the authenticator stores its secrets encrypted on this device only.',
  'Cloud idling runs on our servers, so trading cards keep dropping while your computer is switched off; the account centre shows the live status.',
  'Every release is signed and published with a SHA-256 checksum; verify it with certutil, shasum or sha256sum before you install.',
];

/** A plausible article of about 300 words with headings, a list and a code block. */
function article(locale: string, i: number): string {
  const date = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  const body = Array.from(
    { length: 3 },
    (_, s) => `## Section ${s + 1}\n\n${paragraphs[(i + s) % 4]} ${paragraphs[(i + s + 1) % 4]}\n\n- ${paragraphs[s % 4]}\n- ${paragraphs[(s + 2) % 4]}\n`,
  ).join('\n');
  return `---\ntitle: "Generated article ${i} (${locale})"\ndescription: "Benchmark article number ${i} for ${locale}."\ncategory: ${i % 2 ? 'DR' : 'DG'}\ndate: ${date}\nauthor: "Benchmark"\ntags: ["bench"]\n---\n\n${body}\n\`\`\`bash\nsha256sum -c checksums.txt\n\`\`\`\n`;
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(suffix))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * The JavaScript budgets, in gzipped bytes. An island page loads the shared
 * React runtime (the renderer's module and the chunks it imports) once and
 * its own code; a page without an island never loads the runtime, and a
 * content page only the few small scripts every page has.
 */
const budget = { total: 120 * 1024, beyondRuntime: 60 * 1024, content: 5 * 1024 };
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface PageJavaScript {
  /** Every script the page loads before it is interactive, each file counted once. */
  gzipBytes: number;
  /** The part of it that is the island renderer and the chunks it imports. */
  runtimeBytes: number;
  /** Those runtime files, relative to the output folder: the same on every island page when the runtime is shared. */
  runtimeFiles: string[];
  island: boolean;
  /** Every file the page loads or may import later (dynamic imports), to tell whether it can ever fetch the runtime. */
  reachable: Set<string>;
}

/** The dynamic imports a page makes as it starts, not on demand: dates.ts's dayjs locale of the page's language (these pages are in English). */
const importedAtStart = /^_astro\/en-gb\.[\w-]+\.js$/;

/**
 * Gzipped bytes of every script a page loads: inline ones, module files, and
 * each island's component and renderer (which Astro's inline island script
 * imports), with the chunks they import statically, and what they import
 * dynamically as they start.
 */
function pageJavaScript(htmlFile: string): PageJavaScript {
  const html = readFileSync(htmlFile, 'utf8');
  const inline: string[] = [];
  const files = new Set<string>();
  const renderers = new Set<string>();
  for (const [, attrs, body] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/type="application\/(ld\+)?json"/.test(attrs)) continue;
    const src = attrs.match(/src="([^"]+)"/)?.[1];
    if (!src) inline.push(body);
    else if (src.startsWith('/')) collectModule(path.join(outDir, src), files);
  }
  for (const [island] of html.matchAll(/<astro-island\b[^>]*>/g)) {
    for (const [, kind, url] of island.matchAll(/\s(component|renderer)-url="([^"]+)"/g)) {
      collectModule(path.join(outDir, url), files);
      if (kind === 'renderer') collectModule(path.join(outDir, url), renderers);
    }
  }
  const reachable = new Set<string>();
  for (const file of files) collectModule(file, reachable, true);
  // A dynamic import every start makes is loaded as surely as a static one.
  for (const file of reachable) if (importedAtStart.test(path.relative(outDir, file))) collectModule(file, files);
  const gzip = (code: string) => gzipSync(code).length;
  const sum = (set: Set<string>) => [...set].reduce((total, file) => total + gzip(readFileSync(file, 'utf8')), 0);
  return {
    gzipBytes: inline.reduce((total, code) => total + gzip(code), 0) + sum(files),
    runtimeBytes: sum(renderers),
    runtimeFiles: [...renderers].map((file) => path.relative(outDir, file)).sort(),
    island: html.includes('<astro-island'),
    reachable,
  };
}

/**
 * Adds a module and what it imports statically to `seen`; with `later`, also
 * every module it may import later (each file Vite's `__vite__mapDeps` lists, by its path in the output folder).
 */
function collectModule(file: string, seen: Set<string>, later = false): void {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const [, spec] of code.matchAll(/(?:import|from)\s*["'](\.{1,2}\/[^"']+)["']/g)) collectModule(path.resolve(path.dirname(file), spec), seen, later);
  if (later) for (const [, spec] of code.matchAll(/["'](_astro\/[^"']+\.js)["']/g)) collectModule(path.join(outDir, spec), seen, later);
}

cpSync(path.join(root, 'content'), contentDir, { recursive: true });
const locales = readdirSync(path.join(contentDir, 'articles'));
for (const locale of locales) {
  const dir = path.join(contentDir, 'articles', locale);
  for (let i = 1; i <= perLocale; i++) writeFileSync(path.join(dir, `bench-${String(i).padStart(5, '0')}.md`), article(locale, i));
}
console.log(`Building ${locales.length} locales with ${perLocale} extra articles each into ${outDir} …`);

process.env.CONTENT_DIR = contentDir;
process.env.ASTRO_OUT_DIR = outDir;
process.env.ASTRO_TELEMETRY_DISABLED = '1';

/** Runs one step of the build and answers its wall time in seconds. */
async function timed(step: () => unknown): Promise<number> {
  const started = performance.now();
  await step();
  return Number(((performance.now() - started) / 1000).toFixed(2));
}

/** A step the build script runs as a command of its own; a failure stops the benchmark. */
function command(file: string, args: string[]): void {
  const result = spawnSync(file, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`${path.relative(root, file)} ${args.join(' ')} failed (status ${result.status}, ${result.error?.message ?? result.signal})`);
}

const { build } = await import('astro');
const steps = {
  astro: await timed(() => build({ root, logLevel: 'warn' })),
  pagefind: await timed(() => command(path.join(root, 'node_modules', '.bin', 'pagefind'), ['--site', outDir, '--quiet'])),
  precompress: await timed(() => command(process.execPath, [path.join(root, 'server', 'site', 'precompress.ts'), outDir])),
};
const totalSeconds = Number((steps.astro + steps.pagefind + steps.precompress).toFixed(2));
// This process's peak, which the Astro step sets: the other steps ran in processes of their own.
const peakMiB = process.resourceUsage().maxRSS / 1024;

const pages = filesUnder(outDir, '.html').length;
/** Pages of reading only: no island, no script of their own beyond what every page has, at most 5 KB. */
const contentPages = {
  home: 'index.html',
  article: 'article/getting-started/index.html',
  'article list': 'article/index.html',
  download: 'download/index.html',
  faq: 'faq/index.html',
  'change log': 'changelog/index.html',
  agreement: 'agreement/index.html',
  privacy: 'privacy/index.html',
  contact: 'contact/index.html',
  'activation help': 'activate/help/index.html',
};
/** Every page type that hydrates an island or runs a script of its own (search, plugin list and sponsor do, without React). */
const interactivePages = {
  search: 'search/index.html',
  login: 'account/login/index.html',
  'account: info': 'account/center/info/index.html',
  'account: edit': 'account/center/edit/index.html',
  'account: safety': 'account/center/safe/index.html',
  'account: bind': 'account/center/bind/index.html',
  'account: games': 'account/center/game/index.html',
  'account: wallet': 'account/center/wallet/index.html',
  'account: agreements': 'account/center/agreements/index.html',
  'account: orders': 'account/center/order/index.html',
  'account: order detail': 'account/center/order/detail/index.html',
  'account: redemptions': 'account/center/redemption/index.html',
  'account: donate': 'account/center/redemption/donate/index.html',
  'account: Steam account': 'account/center/steam/account/index.html',
  'account: cloud idling': 'account/center/steam/cloudidea/index.html',
  'account: points': 'account/center/steam/point/index.html',
  recharge: 'recharge/steam/index.html',
  payment: 'payment/index.html',
  wechatpay: 'wechatpay/index.html',
  activation: 'activate/cdkey/index.html',
  'raffle list and detail': 'raffle/index.html',
  'raffle: instant': 'raffle/forthwith/index.html',
  'raffle: verify': 'raffle/verify/index.html',
  'plugin list': 'plugin/index.html',
  plugin: 'plugin/authenticator/index.html',
  accelerate: 'accelerate/index.html',
  sponsor: 'sponsor/index.html',
  bindorder: 'bindorder/index.html',
  'customer service': 'customer/service/index.html',
};
const pageTypes: Record<string, string> = { ...contentPages, ...interactivePages };
const js = Object.fromEntries(Object.entries(pageTypes).map(([type, file]) => [type, pageJavaScript(path.join(outDir, 'en', file))]));
const islandPages = Object.values(js).filter((page) => page.island);
/** The runtime every island page loads; shared when each of them names the same files. */
const runtimeFiles = [...new Set(islandPages.flatMap((page) => page.runtimeFiles))].sort();
const runtimeBytes = Math.max(0, ...islandPages.map((page) => page.runtimeBytes));
const runtime = new Set(runtimeFiles.map((file) => path.join(outDir, file)));

/** What a page breaks of the budgets, in words; empty when it keeps them. */
function overBudget(type: string, page: PageJavaScript): string[] {
  const problems: string[] = [];
  if (type in contentPages) {
    if (page.gzipBytes > budget.content) problems.push(`loads ${kb(page.gzipBytes)}; a content page may load ${kb(budget.content)}`);
  } else {
    if (page.gzipBytes > budget.total) problems.push(`loads ${kb(page.gzipBytes)} in total; a page may load ${kb(budget.total)}`);
    if (page.gzipBytes - page.runtimeBytes > budget.beyondRuntime)
      problems.push(`loads ${kb(page.gzipBytes - page.runtimeBytes)} beyond the shared runtime; a page may load ${kb(budget.beyondRuntime)}`);
  }
  if (page.island && page.runtimeFiles.join() !== runtimeFiles.join()) problems.push(`loads a runtime of its own (${page.runtimeFiles.join(', ')})`);
  if (!page.island) {
    const fetched = [...page.reachable].filter((file) => runtime.has(file));
    if (fetched.length) problems.push(`can fetch the island runtime (${fetched.map((file) => path.relative(outDir, file)).join(', ')})`);
  }
  return problems;
}

const results = {
  date: new Date().toISOString(),
  articlesPerLocale: perLocale,
  locales: locales.length,
  pages,
  stepSeconds: { ...steps, total: totalSeconds },
  pagesPerSecond: Math.round(pages / steps.astro),
  peakMemoryMiB: Math.round(peakMiB),
  javaScript: Object.fromEntries(
    Object.entries(js).map(([type, page]) => [
      type,
      { gzipBytes: page.gzipBytes, beyondRuntimeBytes: page.gzipBytes - page.runtimeBytes, island: page.island },
    ]),
  ),
  runtime: { files: runtimeFiles, gzipBytes: runtimeBytes },
  budgetBytes: budget,
};

console.log('\nSite build benchmark');
console.table({
  pages: { value: results.pages },
  'Astro pages / second': { value: results.pagesPerSecond },
  'Astro peak memory (MiB)': { value: results.peakMemoryMiB },
});
const share = (stepSeconds: number) => `${Math.round((stepSeconds / totalSeconds) * 100)} %`;
console.table({
  'astro build': { seconds: steps.astro, share: share(steps.astro) },
  'pagefind --site': { seconds: steps.pagefind, share: share(steps.pagefind) },
  'precompress.ts': { seconds: steps.precompress, share: share(steps.precompress) },
  'npm run build': { seconds: totalSeconds, share: '100 %' },
});
console.log(`Shared island runtime: ${kb(runtimeBytes)} gzipped (${runtimeFiles.join(', ') || 'no island page'})`);
console.table(
  Object.fromEntries(
    Object.entries(js).map(([type, page]) => [
      type,
      {
        island: page.island ? 'yes' : 'no',
        'gzipped JS': kb(page.gzipBytes),
        'beyond the runtime': page.island ? kb(page.gzipBytes - page.runtimeBytes) : '—',
        budget: overBudget(type, page).length ? 'OVER' : 'ok',
      },
    ]),
  ),
);

mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
writeFileSync(path.join(root, 'bench', 'results', 'site.json'), `${JSON.stringify({ ...results, load: load.end() }, null, 2)}\n`);
console.log('Wrote bench/results/site.json');
if (!values.keep) rmSync(work, { recursive: true, force: true });

const over = Object.entries(js).flatMap(([type, page]) => overBudget(type, page).map((problem) => `the ${type} page (${pageTypes[type]}) ${problem}`));
for (const problem of over) console.error(`Over the JavaScript budget: ${problem}.`);
if (over.length) process.exitCode = 1;
