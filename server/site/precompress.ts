/**
 * After `astro build` and Pagefind: writes a Brotli (`.br`) and a gzip (`.gz`)
 * copy beside every text file of the built site worth compressing, so the
 * server sends the smallest one a browser accepts without compressing on each
 * request (`@fastify/static`'s `preCompressed`). `npm run build` runs it.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const siteDir = path.resolve(import.meta.dirname, '../..', process.argv[2] ?? 'dist');
/** Text that compresses well; Pagefind's own index files come compressed already. */
const compressible = /\.(html|css|js|mjs|json|xml|svg|txt|webmanifest)$/;
/** Below this, the headers cost more than compression saves. */
const minBytes = 1024;

let files = 0;
let before = 0;
let after = 0;
for (const entry of readdirSync(siteDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !compressible.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  if (statSync(file).size < minBytes) continue;
  const content = readFileSync(file);
  const brotli = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  writeFileSync(`${file}.br`, brotli);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  files++;
  before += content.length;
  after += brotli.length;
}
console.log(`Precompressed ${files} files: ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB with Brotli.`);
