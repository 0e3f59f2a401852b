// @ts-check
import { defineConfig } from 'astro/config';
import preact from '@astrojs/preact';
import sitemap from '@astrojs/sitemap';
import { defaultSiteUrl } from './contract/site.ts';
import { defaultLocale, locales } from './src/i18n/locales.ts';

/** Where the site is published; canonical URLs, hreflang alternates, og:image, feeds and the sitemap use it. */
const site = process.env.SITE_URL || defaultSiteUrl;
if (!/^https?:\/\/[^/]/.test(site) || !URL.canParse(site))
  throw new Error(`SITE_URL must be an absolute http(s) URL such as https://beacontoolkit.net, not "${site}"`);

/** @type {import('astro').AstroUserConfig['i18n']} */
const i18n = {
  defaultLocale,
  locales: locales.map((l) => (l.segment && l.segment !== l.code ? { path: l.segment, codes: [l.code] } : l.code)),
  routing: { prefixDefaultLocale: false, redirectToDefaultLocale: false },
};

export default defineConfig({
  site,
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'directory' },
  // Everything the bench generates lands elsewhere; the real build reads ./content.
  outDir: process.env.ASTRO_OUT_DIR ?? './dist',
  // Computed from the locale table, which defineConfig's literal-type inference cannot follow.
  i18n: /** @type {any} */ (i18n),
  integrations: [
    // Islands are written against React's API and run on Preact's compatible layer (README, Decisions).
    preact({ compat: true }),
    sitemap({
      // Box pages are embedded in the desktop client and not-found pages are not documents.
      filter: (page) => !/(box|not-found)(\/|$)/.test(new URL(page).pathname),
      i18n: {
        defaultLocale: defaultLocale,
        locales: Object.fromEntries(locales.map((l) => [l.segment || l.code, l.tag])),
      },
    }),
  ],
});
