// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { defaultSiteUrl } from './contract/site.ts';
import { defaultLocale, locales } from './src/i18n/locales.ts';
import { editorialChecks } from './src/integrations/editorial-checks.ts';
import { localeReport } from './src/integrations/locale-report.ts';

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
  vite: {
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: {
              // Shared chunks, each cached once for the whole site (docs/decisions.md: islands on React).
              // A chunk per combination of pages that share code would cost several KB of gzip overhead
              // on a page that loads thirty small files, so the code that goes together goes into one:
              // - react: React, react-dom and the island renderer, which every island page loads;
              // - chrome: what the header's and footer's scripts need on every page;
              // - api: the API client, the session store and the contract they parse answers with, which
              //   every island page and the pages with a script of their own that calls the API load.
              // A module a group lists brings the modules it imports along, so a small module that a page
              // without the API needs (the API base in lib/api/config.ts) is named by chrome first.
              codeSplitting: {
                groups: [
                  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/ },
                  {
                    name: 'chrome',
                    test: /src[\\/](components[\\/](header-controls|session-badge|store-link)|lib[\\/](storage|auth-token|avatar|api[\\/]config)|stores[\\/]theme)\.ts$|nanostores[\\/]atom[\\/]|preload-helper/,
                  },
                  {
                    name: 'api',
                    test: /node_modules[\\/](zod|@nanostores[\\/]query|nanostores[\\/](?!atom))|src[\\/](lib[\\/]api[\\/](client|crypto|errors|query)|stores[\\/]session|i18n[\\/](strings|interpolate|locales))\.ts|contract[\\/](api|errors|facts|fields|identity|interpolate|locales|paging)\.ts/,
                  },
                ],
              },
            },
          },
        },
      },
    },
  },
  integrations: [
    editorialChecks(),
    localeReport(),
    react(),
    sitemap({
      // Box pages are embedded in the desktop client, not-found pages are not documents, and the
      // translation status is for translators, and the console (/admin) for the shop's staff.
      filter: (page) => !/(box|not-found|translation-status|\/admin)(\/|$)/.test(new URL(page).pathname),
      i18n: {
        defaultLocale: defaultLocale,
        locales: Object.fromEntries(locales.map((l) => [l.segment || l.code, l.tag])),
      },
    }),
  ],
});
