/**
 * The fonts of the share images (`/og.png`, `/en/og.png`, …; src/lib/og-image.ts):
 * small subsets of Noto Sans CJK (SIL OFL 1.1), committed to src/assets/og-fonts/
 * so the build never depends on the fonts a machine happens to have. Only the
 * glyphs the images draw are in them; `npm run og-fonts` (scripts/og-fonts.ts)
 * cuts them again after a tagline changed, and tests/unit/og-fonts.test.ts
 * fails until it has.
 *
 * Plain relative imports only: the script runs this module in Node as it is.
 */
import type { LocaleCode } from '../i18n/locales.ts';

/** The script that makes the fonts, as the test's failure message and the renderer's error name it. */
export const ogFontsCommand = 'npm run og-fonts';

export interface OgFont {
  /** File name in src/assets/og-fonts/. */
  file: string;
  /** The Noto Sans CJK face it is cut from (name table: family and subfamily). */
  family: string;
  style: 'Regular' | 'Bold';
}

/**
 * One Latin face for every locale (Noto Sans CJK's Latin and Cyrillic are the
 * same in every regional face), and one CJK face per region, because the same
 * code point is drawn differently in China, Taiwan, Japan and Korea.
 */
export const ogFonts = {
  latin: { file: 'latin-regular.otf', family: 'Noto Sans CJK SC', style: 'Regular' },
  latinBold: { file: 'latin-bold.otf', family: 'Noto Sans CJK SC', style: 'Bold' },
  sc: { file: 'sc-regular.otf', family: 'Noto Sans CJK SC', style: 'Regular' },
  tc: { file: 'tc-regular.otf', family: 'Noto Sans CJK TC', style: 'Regular' },
  jp: { file: 'jp-regular.otf', family: 'Noto Sans CJK JP', style: 'Regular' },
  kr: { file: 'kr-regular.otf', family: 'Noto Sans CJK KR', style: 'Regular' },
} as const satisfies Record<string, OgFont>;

export type OgFontKey = keyof typeof ogFonts;

/** The regional CJK face of the locales that need one. */
const cjkFontOf: Partial<Record<LocaleCode, OgFontKey>> = { 'zh-CN': 'sc', 'zh-TW': 'tc', ja: 'jp', ko: 'kr' };

/**
 * What the Latin faces always hold, whatever the taglines say today: ASCII,
 * Latin-1 and Latin Extended-A, basic Cyrillic, general punctuation (dashes,
 * quotes, ellipsis) and the euro sign. A tagline edit in a Latin or Cyrillic
 * script then rarely needs new fonts.
 */
export const latinRanges: readonly (readonly [number, number])[] = [
  [0x20, 0x7e],
  [0xa0, 0x17f],
  [0x400, 0x45f],
  [0x2010, 0x2027],
  [0x2030, 0x203a],
  [0x20ac, 0x20ac],
];

/** The bold face carries the product name and nothing else: ASCII. */
export const latinBoldRanges: readonly (readonly [number, number])[] = [[0x20, 0x7e]];

export const inRanges = (codePoint: number, ranges: readonly (readonly [number, number])[]) =>
  ranges.some(([from, to]) => codePoint >= from && codePoint <= to);

/** Where a locale's tagline looks for a character, first to last. */
export function taglineFonts(locale: LocaleCode): OgFontKey[] {
  const cjk = cjkFontOf[locale];
  return cjk ? ['latin', cjk] : ['latin'];
}

/** The fonts the product name is set in. */
export const brandFonts: OgFontKey[] = ['latinBold'];

/**
 * Which font file must hold each character of the taglines: a character of the
 * Latin ranges goes to the Latin face, anything else to the locale's last
 * font (its CJK face, or the Latin face for a locale without one).
 */
export function charactersByFont(taglines: Partial<Record<LocaleCode, string>>): Map<OgFontKey, Set<number>> {
  const needed = new Map<OgFontKey, Set<number>>(Object.keys(ogFonts).map((key) => [key as OgFontKey, new Set<number>()]));
  for (const [locale, tagline] of Object.entries(taglines) as [LocaleCode, string][]) {
    const stack = taglineFonts(locale);
    for (const char of tagline) {
      const codePoint = char.codePointAt(0) ?? 0;
      needed.get(inRanges(codePoint, latinRanges) ? 'latin' : stack[stack.length - 1])?.add(codePoint);
    }
  }
  return needed;
}
