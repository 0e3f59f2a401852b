/**
 * After `astro build` and Pagefind: writes a Brotli (`.br`) and a gzip (`.gz`)
 * copy beside every text file of the built site worth compressing, so the
 * server sends the smallest one a browser accepts without compressing on each
 * request (`@fastify/static`'s `preCompressed`). `npm run build` runs it.
 *
 * Brotli at its best quality is the slowest step of a build, so files are
 * compressed on every core at once (zlib's asynchronous calls run on libuv's
 * thread pool), and a build of `dist/` keeps the copies it made in
 * node_modules/.cache, by the content they came from: Astro empties `dist/`
 * on every build, but an unchanged file is not compressed again. A build of
 * another folder (the site benchmark's) compresses everything, as a first build does.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '../..');
const siteDir = path.resolve(root, process.argv[2] ?? 'dist');
const cacheDir = siteDir === path.join(root, 'dist') ? path.join(root, 'node_modules', '.cache', 'beacon-precompress') : null;
/** Text that compresses well; Pagefind's own index files come compressed already. */
const compressible = /\.(html|css|js|mjs|json|xml|svg|txt|webmanifest)$/;
/** Below this, the headers cost more than compression saves. */
const minBytes = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The two copies of `content`, from the cache when it has them. */
async function copiesOf(content: Buffer): Promise<{ br: Buffer; gz: Buffer; cached: boolean; key: string }> {
  const key = createHash('sha256').update(content).digest('hex');
  if (cacheDir) {
    const cached = await Promise.all([readFile(path.join(cacheDir, `${key}.br`)), readFile(path.join(cacheDir, `${key}.gz`))]).catch(() => null);
    if (cached) return { br: cached[0], gz: cached[1], cached: true, key };
  }
  const [br, gz] = await Promise.all([
    brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
    gzipped(content, { level: 9 }),
  ]);
  if (cacheDir) await Promise.all([writeFile(path.join(cacheDir, `${key}.br`), br), writeFile(path.join(cacheDir, `${key}.gz`), gz)]);
  return { br, gz, cached: false, key };
}

const files: string[] = [];
for (const entry of await readdir(siteDir, { recursive: true, withFileTypes: true })) {
  const file = path.join(entry.parentPath, entry.name);
  if (entry.isFile() && compressible.test(entry.name) && (await stat(file)).size >= minBytes) files.push(file);
}
if (cacheDir) await mkdir(cacheDir, { recursive: true });

let before = 0;
let after = 0;
let reused = 0;
const used = new Set<string>();
const queue = files.values();
// Two files per core keeps every core busy while the others read and write.
await Promise.all(
  Array.from({ length: availableParallelism() * 2 }, async () => {
    for (const file of queue) {
      const content = await readFile(file);
      const { br, gz, cached, key } = await copiesOf(content);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
      used.add(key);
      before += content.length;
      after += br.length;
      if (cached) reused++;
    }
  }),
);
// The cache holds what the current build uses, nothing older.
if (cacheDir) {
  for (const name of await readdir(cacheDir)) if (!used.has(path.parse(name).name)) await rm(path.join(cacheDir, name), { force: true });
}
console.log(
  `Precompressed ${files.length} files (${reused} unchanged, from the cache): ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB with Brotli.`,
);
