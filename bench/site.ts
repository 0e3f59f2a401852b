/**
 * Site build benchmark (`npm run bench:site`): copies the real content, adds
 * N generated articles per locale and builds into a temporary folder as
 * `npm run build` does, one step after the other: Astro (in this process),
 * then Pagefind's index and the precompressed copies (each in a child process,
 * as the build script runs them). Reports each step's wall time, pages per
 * second and peak memory of the Astro step, and the gzipped JavaScript each
 * page type ships. Prints tables, writes bench/results/site.json, and exits
 * non-zero when a page with an island ships more than the JavaScript budget.
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

/** What an island page (one that hydrates an island) may ship at most: 75 KB of gzipped JavaScript. */
const budgetBytes = 75 * 1024;

/**
 * Gzipped bytes of every script a page loads: inline ones, module files, and
 * each island's component and renderer (which Astro's inline island script
 * imports), with the chunks they import, each file counted once.
 */
function pageJavaScript(htmlFile: string): { gzipBytes: number; island: boolean } {
  const html = readFileSync(htmlFile, 'utf8');
  const sources: string[] = [];
  const seen = new Set<string>();
  for (const [, attrs, body] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/type="application\/(ld\+)?json"/.test(attrs)) continue;
    const src = attrs.match(/src="([^"]+)"/)?.[1];
    if (!src) sources.push(body);
    else if (src.startsWith('/')) collectModule(path.join(outDir, src), sources, seen);
  }
  for (const [island] of html.matchAll(/<astro-island\b[^>]*>/g)) {
    for (const [, url] of island.matchAll(/\s(?:component|renderer)-url="([^"]+)"/g)) collectModule(path.join(outDir, url), sources, seen);
  }
  const gzipBytes = sources.reduce((sum, code) => sum + gzipSync(code).length, 0);
  return { gzipBytes, island: html.includes('<astro-island') };
}

function collectModule(file: string, sources: string[], seen: Set<string>): void {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  sources.push(code);
  for (const [, spec] of code.matchAll(/(?:import|from)\s*["'](\.{1,2}\/[^"']+)["']/g)) collectModule(path.resolve(path.dirname(file), spec), sources, seen);
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
const pageTypes = {
  home: 'en/index.html',
  article: 'en/article/bench-00001/index.html',
  download: 'en/download/index.html',
  faq: 'en/faq/index.html',
  login: 'en/account/login/index.html',
  'cloud idling (account island)': 'en/account/center/steam/cloudidea/index.html',
  'plugin list (ratings script)': 'en/plugin/index.html',
  'plugin (reviews island, loaded when seen)': 'en/plugin/authenticator/index.html',
  'accelerate (status island)': 'en/accelerate/index.html',
};
const js = Object.fromEntries(Object.entries(pageTypes).map(([type, file]) => [type, pageJavaScript(path.join(outDir, file))]));

const results = {
  date: new Date().toISOString(),
  articlesPerLocale: perLocale,
  locales: locales.length,
  pages,
  stepSeconds: { ...steps, total: totalSeconds },
  pagesPerSecond: Math.round(pages / steps.astro),
  peakMemoryMiB: Math.round(peakMiB),
  gzippedJsBytes: Object.fromEntries(Object.entries(js).map(([type, v]) => [type, v.gzipBytes])),
  islandOnPage: Object.fromEntries(Object.entries(js).map(([type, v]) => [type, v.island])),
  islandBudgetBytes: budgetBytes,
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
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.table(
  Object.fromEntries(
    Object.entries(js).map(([type, v]) => [
      type,
      {
        'gzipped JS (bytes)': v.gzipBytes,
        'gzipped JS': kb(v.gzipBytes),
        island: v.island ? 'yes' : 'no',
        budget: v.island ? (v.gzipBytes <= budgetBytes ? 'ok' : 'OVER') : '—',
      },
    ]),
  ),
);

mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
writeFileSync(path.join(root, 'bench', 'results', 'site.json'), `${JSON.stringify({ ...results, load: load.end() }, null, 2)}\n`);
console.log('Wrote bench/results/site.json');
if (!values.keep) rmSync(work, { recursive: true, force: true });

const over = Object.entries(js).filter(([, v]) => v.island && v.gzipBytes > budgetBytes);
for (const [type, v] of over)
  console.error(
    `Over the JavaScript budget: the ${type} page ships ${v.gzipBytes} bytes (${kb(v.gzipBytes)}) of gzipped JS; an island page may ship ${budgetBytes} (${kb(budgetBytes)}).`,
  );
if (over.length) process.exitCode = 1;
