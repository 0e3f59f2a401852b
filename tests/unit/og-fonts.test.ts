/**
 * The share images' committed subset fonts hold every character they draw, so
 * a tagline edit cannot silently turn into tofu: when this fails, run the
 * script it names and commit src/assets/og-fonts/.
 */
import { readFileSync, statSync } from 'node:fs';
import * as hb from 'harfbuzzjs';
import { describe, expect, test } from 'vitest';
import { fillFacts } from '#contract/facts.ts';
import { localeCodes } from '@/i18n/locales.ts';
import { brandFonts, latinBoldRanges, latinRanges, ogFonts, ogFontsCommand, taglineFonts, type OgFontKey } from '@/lib/og-fonts.ts';
import { site } from '@/lib/site.ts';

const dir = 'src/assets/og-fonts';

const held = new Map(
  (Object.keys(ogFonts) as OgFontKey[]).map((key) => [key, new Set(new hb.Face(new hb.Blob(readFileSync(`${dir}/${ogFonts[key].file}`))).collectUnicodes())]),
);

/** The characters of `text` none of `fonts` has, as `"x" (U+0078)`. */
function missing(text: string, fonts: OgFontKey[]): string[] {
  const lacking = [...new Set(text)].filter((char) => !fonts.some((key) => held.get(key)?.has(char.codePointAt(0) ?? 0)));
  return lacking.map((char) => `"${char}" (U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`);
}

describe('share image fonts', () => {
  test.each(localeCodes)('%s: every character of site.tagline is in the committed fonts', (locale) => {
    const { site } = JSON.parse(readFileSync(`content/i18n/${locale}.json`, 'utf8')) as { site: Record<string, string> };
    const tagline = fillFacts(site['site.tagline'] ?? '', locale);
    const fonts = taglineFonts(locale);
    expect(
      missing(tagline, fonts),
      `content/i18n/${locale}.json's site.tagline has characters that ${fonts.map((k) => ogFonts[k].file).join(' + ')} lack: run \`${ogFontsCommand}\` (scripts/og-fonts.ts) and commit ${dir}/`,
    ).toEqual([]);
  });

  test('the product name and any host name are in the Latin faces', () => {
    expect(missing(site.name, brandFonts), `run \`${ogFontsCommand}\``).toEqual([]);
    const ascii = String.fromCharCode(...Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => 0x20 + i));
    expect(missing(ascii, ['latin']), `run \`${ogFontsCommand}\``).toEqual([]);
    expect(missing(ascii, ['latinBold']), `run \`${ogFontsCommand}\``).toEqual([]);
    // The fixed ranges the script always cuts (what the source font has of them).
    expect(latinRanges[0]).toEqual([0x20, 0x7e]);
    expect(latinBoldRanges[0]).toEqual([0x20, 0x7e]);
  });

  test('the fonts stay small and carry their licence', () => {
    const total = Object.values(ogFonts).reduce((sum, font) => sum + statSync(`${dir}/${font.file}`).size, 0);
    expect(total).toBeLessThan(1024 * 1024);
    expect(readFileSync(`${dir}/OFL.txt`, 'utf8')).toContain('SIL OPEN FONT LICENSE Version 1.1');
  });
});
