/** The share image (src/lib/og-image.ts draws it, src/lib/og-text-layout.ts lays out its text): a 1200×630 PNG per locale, text that breaks where the language allows. */
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { useTranslations } from '@/i18n/t.ts';
import { ogImageSize, ogImageSvg, renderOgImage } from '@/lib/og-image.ts';
import { breakUnits } from '@/lib/og-text-layout.ts';

describe('share image', () => {
  test('renders a locale as a 1200×630 PNG', async () => {
    const png = await renderOgImage({ locale: 'ja', name: 'Beacon Toolkit', tagline: useTranslations('ja')('site.tagline'), host: 'beacontoolkit.net' });
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: width and height right after the chunk type.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([ogImageSize.width, ogImageSize.height]);
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1200, height: 630 });
    // Not a blank canvas: the dark background, the white window and the light text all show.
    const { channels } = await sharp(png).stats();
    expect(channels[0].max - channels[0].min).toBeGreaterThan(200);
  });

  test('draws every letter as a path: the SVG holds no text for a system font to fill', () => {
    const svg = ogImageSvg({ locale: 'zh-TW', name: 'Beacon Toolkit', tagline: useTranslations('zh-TW')('site.tagline'), host: 'example.org' });
    expect(svg).not.toMatch(/<text|font-family/);
    expect(svg.match(/<path /g)?.length).toBeGreaterThan(30);
  });

  test('a character the fonts lack stops the build and names the script', () => {
    expect(() => ogImageSvg({ locale: 'en', name: 'Beacon Toolkit', tagline: 'Steam שלום', host: 'beacontoolkit.net' })).toThrow(
      /"ש" \(U\+05E9\).*npm run og-fonts/,
    );
  });

  test('lines break at spaces, between CJK words, never before closing marks or Japanese particles, nor after one-letter words', () => {
    expect(breakUnits('The free, open-source helper.', 'en')).toEqual(['The ', 'free, ', 'open-source ', 'helper.']);
    expect(breakUnits('Steamプレイヤーのための、無料のオープンソースツール。', 'ja')).toEqual([
      'Steam',
      'プレイヤーの',
      'ための、',
      '無料の',
      'オープン',
      'ソース',
      'ツール。',
    ]);
    expect(breakUnits('专为 Steam 玩家打造的工具箱。', 'zh-CN').join('|')).not.toMatch(/\|。/);
    expect(breakUnits('Steam 플레이어를 위한 도우미.', 'ko')).toEqual(['Steam ', '플레이어를 ', '위한 ', '도우미.']);
    expect(breakUnits('помощник с открытым кодом', 'ru')).toEqual(['помощник ', 'с открытым ', 'кодом']);
  });
});
