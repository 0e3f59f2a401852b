/**
 * Cuts the share images' fonts (src/lib/og-fonts.ts says which) out of Noto Sans
 * CJK into src/assets/og-fonts/: each file holds only the glyphs the images
 * draw, so the build needs no system fonts and the repository stays small.
 * Run it after a `site.tagline` changed: `npm run og-fonts`.
 *
 * Source fonts: Debian's `fonts-noto-cjk` (`apt-get install fonts-noto-cjk`),
 * or a folder named by OG_FONT_SOURCE holding NotoSansCJK-Regular.ttc and
 * NotoSansCJK-Bold.ttc (or the single-face .otf files) from
 * https://github.com/notofonts/noto-cjk.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as hb from 'harfbuzzjs';
import { fillFacts } from '../contract/facts.ts';
import { locales, type LocaleCode } from '../src/i18n/locales.ts';
import { charactersByFont, latinBoldRanges, latinRanges, ogFonts, type OgFont, type OgFontKey } from '../src/lib/og-fonts.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'src/assets/og-fonts');

const sourceDirs = process.env.OG_FONT_SOURCE
  ? [process.env.OG_FONT_SOURCE]
  : ['/usr/share/fonts', '/usr/local/share/fonts', join(homedir(), '.local/share/fonts'), join(homedir(), '.fonts')];

/** Every Noto Sans CJK font file below the source folders. */
function fontFiles(dir: string, depth = 0): string[] {
  if (!existsSync(dir) || depth > 4) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return fontFiles(path, depth + 1);
    return /^NotoSans.*CJK.*\.(ttc|otf)$/i.test(name) ? [path] : [];
  });
}

interface Face {
  path: string;
  index: number;
  data: Buffer;
}

/** Finds each wanted face by its name table (family and subfamily), in collections too. */
function findFaces(): Map<string, Face> {
  const wanted = new Set(Object.values(ogFonts).map((f: OgFont) => `${f.family}/${f.style}`));
  const found = new Map<string, Face>();
  for (const path of sourceDirs.flatMap((dir) => fontFiles(dir))) {
    const data = readFileSync(path);
    const blob = new hb.Blob(data);
    const count = path.toLowerCase().endsWith('.ttc') ? data.readUInt32BE(8) : 1;
    for (let index = 0; index < count; index++) {
      const face = new hb.Face(blob, index);
      const key = `${face.getName(1, 'en')}/${face.getName(2, 'en')}`;
      if (wanted.has(key) && !found.has(key)) found.set(key, { path, index, data });
    }
  }
  const missing = [...wanted].filter((key) => !found.has(key));
  if (missing.length) {
    console.error(
      `Noto Sans CJK faces not found (${missing.join(', ')}) under ${sourceDirs.join(', ')}.\n` +
        'Install them (apt-get install fonts-noto-cjk) or set OG_FONT_SOURCE to a folder with NotoSansCJK-Regular.ttc and NotoSansCJK-Bold.ttc from https://github.com/notofonts/noto-cjk.',
    );
    process.exit(1);
  }
  return found;
}

/** HarfBuzz's subsetter, straight from harfbuzzjs's WebAssembly build. */
interface Subsetter {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_input_set(input: number, kind: number): number;
  hb_subset_input_get_flags(input: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
  _initialize(): void;
}

const HB_MEMORY_MODE_WRITABLE = 2;
const HB_SUBSET_SETS_NAME_ID = 4;
const HB_SUBSET_FLAGS_NO_HINTING = 0x1;

async function loadSubsetter(): Promise<Subsetter> {
  const wasm = readFileSync(fileURLToPath(import.meta.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm')));
  const { instance } = await WebAssembly.instantiate(wasm);
  const subsetter = instance.exports as unknown as Subsetter;
  subsetter._initialize();
  return subsetter;
}

/** A subset of one face holding `codePoints` (plus what its layout features reach), hinting dropped, licence names kept. */
function subset(hbs: Subsetter, face: Face, codePoints: Iterable<number>): Buffer {
  const heap = () => new Uint8Array(hbs.memory.buffer);
  const input = hbs.hb_subset_input_create_or_fail();
  if (!input) throw new Error('hb_subset_input_create_or_fail failed');
  const buffer = hbs.malloc(face.data.byteLength);
  heap().set(face.data, buffer);
  const blob = hbs.hb_blob_create(buffer, face.data.byteLength, HB_MEMORY_MODE_WRITABLE, 0, 0);
  const source = hbs.hb_face_create(blob, face.index);
  hbs.hb_blob_destroy(blob);
  try {
    const unicodes = hbs.hb_subset_input_unicode_set(input);
    for (const codePoint of codePoints) hbs.hb_set_add(unicodes, codePoint);
    // Names 0–6 are kept by default; 7, 13 and 14 are the trademark and licence notices.
    const names = hbs.hb_subset_input_set(input, HB_SUBSET_SETS_NAME_ID);
    for (const id of [7, 13, 14]) hbs.hb_set_add(names, id);
    hbs.hb_subset_input_set_flags(input, hbs.hb_subset_input_get_flags(input) | HB_SUBSET_FLAGS_NO_HINTING);
    const result = hbs.hb_subset_or_fail(source, input);
    if (!result) throw new Error(`Subsetting ${face.path} #${face.index} failed`);
    const out = hbs.hb_face_reference_blob(result);
    const offset = hbs.hb_blob_get_data(out, 0);
    const bytes = Buffer.from(heap().slice(offset, offset + hbs.hb_blob_get_length(out)));
    hbs.hb_blob_destroy(out);
    hbs.hb_face_destroy(result);
    return bytes;
  } finally {
    hbs.hb_face_destroy(source);
    hbs.hb_subset_input_destroy(input);
    hbs.free(buffer);
  }
}

const expand = (ranges: readonly (readonly [number, number])[]) => ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));

const taglines = Object.fromEntries(
  locales.map(({ code }) => {
    const { site } = JSON.parse(readFileSync(join(root, `content/i18n/${code}.json`), 'utf8')) as { site: Record<string, string> };
    return [code, fillFacts(site['site.tagline'] ?? '', code)];
  }),
) as Record<LocaleCode, string>;

const needed = charactersByFont(taglines);
for (const codePoint of expand(latinRanges)) needed.get('latin')?.add(codePoint);
for (const codePoint of expand(latinBoldRanges)) needed.get('latinBold')?.add(codePoint);

mkdirSync(outDir, { recursive: true });
const faces = findFaces();
const hbs = await loadSubsetter();
let total = 0;
for (const [key, font] of Object.entries(ogFonts) as [OgFontKey, OgFont][]) {
  const face = faces.get(`${font.family}/${font.style}`);
  if (!face) continue;
  const wanted = [...(needed.get(key) ?? [])].sort((a, b) => a - b);
  const bytes = subset(hbs, face, wanted);
  // What the subset really holds: a character the source lacks would be tofu.
  const held = new Set(new hb.Face(new hb.Blob(bytes)).collectUnicodes());
  const lacking = wanted.filter((c) => !held.has(c) && !inLatinExtras(c));
  if (lacking.length) {
    console.error(`${font.family} ${font.style} has no glyph for ${lacking.map((c) => String.fromCodePoint(c)).join(' ')}`);
    process.exit(1);
  }
  writeFileSync(join(outDir, font.file), bytes);
  total += bytes.length;
  console.log(`${relative(root, join(outDir, font.file))}: ${held.size} characters, ${(bytes.length / 1024).toFixed(1)} KB (from ${face.path} #${face.index})`);
}
console.log(`total ${(total / 1024).toFixed(1)} KB`);

/** The fixed Latin ranges hold a few unassigned or unsupported code points; only the taglines' own characters must all be there. */
function inLatinExtras(codePoint: number): boolean {
  return !Object.values(taglines).some((text) => text.includes(String.fromCodePoint(codePoint)));
}
