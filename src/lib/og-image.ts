/**
 * The share image of a locale (`og:image`, 1200×630 PNG): the logo and product
 * name, the locale's tagline, the site's host, and a drawing of the app.
 *
 * This module draws: the text laid out by src/lib/og-text-layout.ts goes in
 * as glyph outlines (paths), beside the logo and the app drawing, so the SVG
 * that sharp turns into a PNG contains no text and the result is the same on
 * every machine, whatever fonts it has installed.
 */
import sharp from 'sharp';
import logoSvg from '@/assets/favicon.svg?raw';
import type { LocaleCode } from '@/i18n/locales.ts';
import { getLocale } from '@/i18n/locales.ts';
import { brandFonts, taglineFonts } from './og-fonts.ts';
import { layoutTagline, shapeText, type ShapedText } from './og-text-layout.ts';

export const ogImageSize = { width: 1200, height: 630 } as const;

export interface OgImageInput {
  locale: LocaleCode;
  /** The product name, set in bold beside the logo. */
  name: string;
  /** The locale's `site.tagline`. */
  tagline: string;
  /** The site's host name, shown at the bottom (from `site` in astro.config.mjs). */
  host: string;
}

/** Glyph outlines as SVG paths, the baseline starting at (x, y), `size` pixels to the em. */
function textPaths(shaped: ShapedText, x: number, y: number, size: number, fill: string): string {
  const paths = shaped.glyphs.map((g) => {
    const d = g.font.font.glyphToPath(g.id);
    if (!d) return '';
    const s = size / g.font.upem;
    const gx = x + (g.x + g.dx) * size;
    const gy = y - g.dy * size;
    return `<path transform="matrix(${round(s, 6)} 0 0 ${round(-s, 6)} ${round(gx)} ${round(gy)})" d="${d}"/>`;
  });
  return `<g fill="${fill}">${paths.join('')}</g>`;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

const colors = {
  blue: '#1f6feb',
  text: '#ffffff',
  tagline: '#dce8ff',
  muted: '#8fb4ff',
};

/** The logo, the same SVG as the favicon, as an embedded image so its ids cannot clash with ours. */
const logoHref = `data:image/svg+xml;base64,${Buffer.from(logoSvg).toString('base64')}`;

/** A stylised app window: title bar, sidebar, two cards and a list whose first row is online. */
function appWindow(x: number, y: number): string {
  const w = 470;
  const h = 400;
  const side = 118;
  const bar = (bx: number, by: number, bw: number, fill: string, bh = 10) =>
    `<rect x="${bx}" y="${by}" width="${bw}" height="${bh}" rx="${bh / 2}" fill="${fill}"/>`;
  const card = (cx: number, cy: number, accent: string, progress: number) => `
    <rect x="${cx}" y="${cy}" width="148" height="104" rx="12" fill="#ffffff" stroke="#e3e9f3"/>
    <rect x="${cx + 14}" y="${cy + 14}" width="30" height="30" rx="8" fill="${accent}"/>
    ${bar(cx + 54, cy + 18, 70, '#1c2b4a')}
    ${bar(cx + 54, cy + 34, 46, '#b8c4d8', 8)}
    ${bar(cx + 14, cy + 66, 120, '#e8eef7', 8)}
    ${bar(cx + 14, cy + 66, 120 * progress, accent, 8)}
    ${bar(cx + 14, cy + 82, 64, '#d3dcea', 8)}`;
  const row = (ry: number, avatar: string, status: string, lineWidth: number, glow = false) => `
    <circle cx="${side + 36}" cy="${ry}" r="12" fill="${avatar}"/>
    ${bar(side + 58, ry - 11, lineWidth, '#1c2b4a', 9)}
    ${bar(side + 58, ry + 4, lineWidth * 0.6, '#c4cedf', 8)}
    ${glow ? `<circle cx="${w - 32}" cy="${ry}" r="12" fill="${status}" opacity="0.22"/>` : ''}
    <circle cx="${w - 32}" cy="${ry}" r="6" fill="${status}"/>`;
  const nav = [0, 1, 2, 3, 4]
    .map((i) => {
      const ny = 100 + i * 34;
      const active = i === 1;
      return `${active ? `<rect x="10" y="${ny - 11}" width="${side - 20}" height="30" rx="8" fill="#dbe8ff"/>` : ''}
        <rect x="22" y="${ny - 3}" width="14" height="14" rx="4" fill="${active ? colors.blue : '#b9c5da'}"/>
        ${bar(44, ny, [48, 56, 40, 52, 36][i], active ? colors.blue : '#c4cedf', 8)}`;
    })
    .join('');
  return `
  <g transform="translate(${x} ${y})">
    <rect width="${w}" height="${h}" rx="18" fill="#0b1a3a" opacity="0.45" transform="translate(0 18)" filter="url(#soft)"/>
    <clipPath id="window"><rect width="${w}" height="${h}" rx="18"/></clipPath>
    <g clip-path="url(#window)">
      <rect width="${w}" height="${h}" fill="#f5f8fc"/>
      <rect width="${w}" height="40" fill="#e9eef6"/>
      <circle cx="22" cy="20" r="6" fill="#ff6159"/>
      <circle cx="42" cy="20" r="6" fill="#ffbd2e"/>
      <circle cx="62" cy="20" r="6" fill="#28c941"/>
      ${bar(w / 2 - 60, 15, 120, '#d3dcea')}
      <rect y="40" width="${side}" height="${h - 40}" fill="#edf2f9"/>
      <rect x="${side}" y="40" width="1" height="${h - 40}" fill="#dfe6f1"/>
      <image x="20" y="54" width="26" height="26" href="${logoHref}"/>
      ${bar(52, 62, 48, '#1c2b4a', 9)}
      ${nav}
      ${bar(side + 20, 60, 150, '#1c2b4a', 14)}
      <rect x="${w - 116}" y="54" width="96" height="26" rx="13" fill="#dafbe1"/>
      <circle cx="${w - 100}" cy="67" r="5" fill="#2da44e"/>
      ${bar(w - 88, 62, 56, '#2da44e', 9)}
      ${card(side + 20, 96, colors.blue, 0.72)}
      ${card(side + 180, 96, '#8957e5', 0.4)}
      <rect x="${side + 20}" y="216" width="308" height="166" rx="12" fill="#ffffff" stroke="#e3e9f3"/>
      ${row(246, '#9cc3ff', '#2da44e', 120, true)}
      <rect x="${side + 32}" y="270" width="284" height="1" fill="#edf1f7"/>
      ${row(296, '#d2b8ff', '#d4a72c', 96)}
      <rect x="${side + 32}" y="320" width="284" height="1" fill="#edf1f7"/>
      ${row(346, '#ffc6a8', '#afb8c6', 108)}
    </g>
    <rect width="${w}" height="${h}" rx="18" fill="none" stroke="#ffffff" stroke-opacity="0.5"/>
  </g>`;
}

/** The image as SVG, every letter already a path. */
export function ogImageSvg({ locale, name, tagline, host }: OgImageInput): string {
  const { width, height } = ogImageSize;
  const language = getLocale(locale).tag;
  const left = 80;
  const column = 520;

  const brandSize = 46;
  const brand = shapeText(name, brandFonts, 'en');
  const logo = 76;
  const logoY = 92;

  const { size, lines } = layoutTagline(tagline, taglineFonts(locale), language, column);
  const lineHeight = size * 1.32;
  const blockTop = 236;
  const taglinePaths = lines.map((line, i) => textPaths(line, left, blockTop + size * 0.92 + i * lineHeight, size, colors.tagline)).join('');

  const hostSize = 24;
  const hostText = shapeText(host, ['latin'], 'en');

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#07132b"/>
      <stop offset="0.55" stop-color="#0b2459"/>
      <stop offset="1" stop-color="#1250c4"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="${colors.blue}" stop-opacity="0.75"/>
      <stop offset="1" stop-color="${colors.blue}" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="rule" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#58a6ff"/>
      <stop offset="1" stop-color="#8957e5"/>
    </linearGradient>
    <filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="18"/></filter>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <circle cx="900" cy="310" r="420" fill="url(#glow)"/>
  <circle cx="900" cy="310" r="300" fill="none" stroke="#ffffff" stroke-opacity="0.06" stroke-width="2"/>
  <circle cx="900" cy="310" r="380" fill="none" stroke="#ffffff" stroke-opacity="0.04" stroke-width="2"/>
  <image x="${left}" y="${logoY}" width="${logo}" height="${logo}" href="${logoHref}"/>
  ${textPaths(brand, left + logo + 22, logoY + logo / 2 + brandSize * 0.36, brandSize, colors.text)}
  <rect x="${left}" y="204" width="72" height="5" rx="2.5" fill="url(#rule)"/>
  ${taglinePaths}
  <circle cx="${left + 6}" cy="${height - 86}" r="6" fill="#3fb950"/>
  ${textPaths(hostText, left + 24, height - 86 + hostSize * 0.36, hostSize, colors.muted)}
  ${appWindow(650, 100)}
</svg>`;
}

/** The image as a PNG. */
export async function renderOgImage(input: OgImageInput): Promise<Buffer> {
  return sharp(Buffer.from(ogImageSvg(input)), { density: 72 })
    .png({ compressionLevel: 9 })
    .toBuffer();
}
