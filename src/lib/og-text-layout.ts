/**
 * The text layout of the share image (src/lib/og-image.ts draws it): text is
 * shaped with HarfBuzz from the committed subset fonts (src/lib/og-fonts.ts)
 * into placed glyphs measured in ems, and the tagline is cut where its
 * language allows a line break and set at the largest size that fits the
 * column in a few balanced lines. Nothing here depends on the fonts a machine
 * has installed, so the layout is the same everywhere.
 */
import * as hb from 'harfbuzzjs';
import { ogFonts, ogFontsCommand, type OgFontKey } from './og-fonts.ts';

// The fonts travel inside the build as data URLs, so no path has to survive bundling.
const fontData = import.meta.glob<string>('../assets/og-fonts/*.otf', { eager: true, query: '?inline', import: 'default' });

interface LoadedFont {
  font: hb.Font;
  upem: number;
}

const loaded = new Map<OgFontKey, LoadedFont>();

function loadFont(key: OgFontKey): LoadedFont {
  let entry = loaded.get(key);
  if (!entry) {
    const dataUrl = fontData[`../assets/og-fonts/${ogFonts[key].file}`];
    if (!dataUrl) throw new Error(`src/assets/og-fonts/${ogFonts[key].file} is missing: run ${ogFontsCommand}`);
    const face = new hb.Face(new hb.Blob(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64')));
    entry = { font: new hb.Font(face), upem: face.upem };
    loaded.set(key, entry);
  }
  return entry;
}

interface PlacedGlyph {
  font: LoadedFont;
  id: number;
  /** Pen position and offsets in ems. */
  x: number;
  dx: number;
  dy: number;
}

export interface ShapedText {
  glyphs: PlacedGlyph[];
  /** Advance width in ems. */
  width: number;
}

/**
 * Shapes `text` with the first font of `stack` that has each character, run by
 * run. A character none of them has stops the build rather than drawing tofu.
 */
export function shapeText(text: string, stack: OgFontKey[], language: string): ShapedText {
  const fonts = stack.map(loadFont);
  const runs: { font: LoadedFont; text: string }[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    const font = fonts.find((f) => f.font.nominalGlyph(codePoint) !== undefined);
    if (!font) {
      const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
      throw new Error(`The share image fonts (${stack.map((k) => ogFonts[k].file).join(', ')}) have no "${char}" (U+${hex}): run ${ogFontsCommand}`);
    }
    const last = runs.at(-1);
    if (last?.font === font) last.text += char;
    else runs.push({ font, text: char });
  }
  const glyphs: PlacedGlyph[] = [];
  let pen = 0;
  for (const run of runs) {
    const buffer = new hb.Buffer();
    buffer.addText(run.text);
    buffer.setLanguage(language);
    buffer.guessSegmentProperties();
    hb.shape(run.font.font, buffer);
    const positions = buffer.getGlyphPositions();
    buffer.getGlyphInfos().forEach((info, i) => {
      const { xAdvance, xOffset, yOffset } = positions[i];
      glyphs.push({ font: run.font, id: info.codepoint, x: pen, dx: xOffset / run.font.upem, dy: yOffset / run.font.upem });
      pen += xAdvance / run.font.upem;
    });
  }
  return { glyphs, width: pen };
}

/** Characters a line must not start with (closing marks, small kana) or end with (opening marks). */
const noBreakBefore = /[、。，．,.!?！？:;：；)）\]」』】〉》〕ー・ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々]/u;
const noBreakAfter = /[(（[「『【〈《〔]/u;
/** Han, kana and CJK punctuation, written without spaces. Hangul breaks at spaces, as Korean headings do. */
const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;
const space = /\s/u;
/** Japanese hiragana: a one-character particle (の, を, に…), or any run after kanji, katakana or Latin, stays with the word before it. */
const particle = /^\p{Script=Hiragana}+$/u;

/**
 * The tagline cut where a line may break: after spaces, and between the words
 * of Chinese and Japanese (Intl.Segmenter's dictionary), never before a closing
 * mark or after an opening one, nor before a Japanese particle, nor after a
 * one-letter word.
 */
export function breakUnits(text: string, language: string): string[] {
  const units: string[] = [];
  let unit = '';
  let previous = '';
  for (const { segment, index } of new Intl.Segmenter(language, { granularity: 'word' }).segment(text.trim())) {
    const first = [...segment][0];
    const afterSpace = index > 0 && space.test(previous) && !space.test(first);
    const betweenWords = index > 0 && (unspaced.test(previous) || unspaced.test(first)) && !space.test(previous) && !space.test(first);
    const attached =
      noBreakBefore.test(first) ||
      noBreakAfter.test(previous) ||
      (language.startsWith('ja') && particle.test(segment) && ([...segment].length === 1 || !particle.test(previous)));
    // A one-letter word (с, y, a) stays with the word after it, as Russian and Spanish typesetting wants.
    const oneLetter = /^\p{L}$/u.test(unit.trim());
    if ((afterSpace && !oneLetter) || (betweenWords && !attached)) {
      units.push(unit);
      unit = '';
    }
    unit += segment;
    previous = [...segment].at(-1) ?? '';
  }
  if (unit) units.push(unit);
  return units;
}

/** Greedy lines no wider than `maxWidth` (ems); a unit wider than that gets a line of its own. */
function wrap(units: string[], maxWidth: number, measure: (text: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const unit of units) {
    const candidate = line + unit;
    if (!line || measure(candidate.trimEnd()) <= maxWidth) line = candidate;
    else {
      lines.push(line.trimEnd());
      line = unit;
    }
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

interface TaglineLayout {
  size: number;
  lines: ShapedText[];
}

/**
 * The largest size at which the tagline fits the column in at most three
 * lines without a stub of a last line (under 40 % of the longest), then
 * balanced: the narrowest column that keeps the lines, so the last one is
 * never a lonely word. Without such a size, the largest that fits at all.
 */
export function layoutTagline(text: string, stack: OgFontKey[], language: string, columnWidth: number): TaglineLayout {
  const units = breakUnits(text, language);
  const cache = new Map<string, ShapedText>();
  const shaped = (t: string) => {
    let s = cache.get(t);
    if (!s) cache.set(t, (s = shapeText(t, stack, language)));
    return s;
  };
  const sizes = [54, 50, 46, 42, 38, 34, 30, 26];
  const layouts = sizes.map((size) => {
    const measure = (t: string) => shaped(t).width * size;
    const lines = wrap(units, columnWidth, measure);
    const widths = lines.map(measure);
    const fits = lines.length <= 3 && widths.every((w) => w <= columnWidth);
    const stub = lines.length > 1 && (widths.at(-1) ?? 0) < 0.4 * Math.max(...widths);
    return { size, measure, lines, fits, stub };
  });
  const chosen = layouts.find((l) => l.fits && !l.stub) ?? layouts.find((l) => l.fits) ?? layouts[layouts.length - 1];
  const { size, measure, lines } = chosen;
  const keeps = (width: number) => {
    const narrower = wrap(units, width, measure);
    return narrower.length === lines.length && narrower.every((l) => measure(l) <= width);
  };
  let width = columnWidth;
  while (width > columnWidth * 0.5 && keeps(width - 4)) width -= 4;
  return { size, lines: wrap(units, width, measure).map(shaped) };
}
