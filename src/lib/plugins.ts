/**
 * The plugin catalogue as pages read it: each locale's words
 * (content/plugins/<locale>/<slug>.md) joined with the facts every locale
 * shares (content/plugins/catalogue.json), the categories and list pages, the
 * screenshots, and whether a plugin works with the app version on offer.
 * A locale that does not cover a plugin's screenshots and releases fails the build.
 */
import type { ImageMetadata } from 'astro';
import { pluginCatalogue } from '#contract/plugins.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { localizedEntries, type LocalizedEntry } from './content.ts';
import { loadReleases } from './releases.ts';

export type PluginFacts = (typeof pluginCatalogue.plugins)[number];

export const pluginCategories = ['all', ...pluginCatalogue.categories] as const;
export type PluginCategory = (typeof pluginCategories)[number];

/** The UI string naming a category of catalogue.json, whose names are plain strings to TypeScript: one without its string fails the build. */
export const categoryKey = (category: string) => `plugin.category.${category}` as KeysUnder<'plugin.category'>;

/** The UI string naming a platform of catalogue.json, as `categoryKey`. */
export const platformKey = (platform: string) => `platform.${platform}` as KeysUnder<'platform'>;

/** A list page: /plugin, /plugin/page/2, /plugin/category/security/page/2. */
export function pluginListPath(category: PluginCategory, page: number): string {
  const base = category === 'all' ? '/plugin' : `/plugin/category/${category}`;
  return page > 1 ? `${base}/page/${page}` : base;
}

export interface Plugin extends LocalizedEntry<'plugins'> {
  facts: PluginFacts;
}

const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((key, i) => key === b[i]);

/** Every plugin in the locale's words, most recently updated first. */
export async function localizedPlugins(locale: LocaleCode): Promise<Plugin[]> {
  const entries = await localizedEntries('plugins', locale);
  return pluginCatalogue.plugins
    .map((facts) => {
      const item = entries.find((entry) => entry.slug === facts.slug);
      const file = `content/plugins/${locale}/${facts.slug}.md`;
      if (!item) throw new Error(`${file} is missing (catalogue.json lists it)`);
      const { screenshots, changes } = item.entry.data;
      if (!sameKeys(Object.keys(screenshots), facts.screenshots))
        throw new Error(`${file}: screenshots must be ${facts.screenshots.join(', ')}, in that order`);
      const versions = facts.releases.map((release) => release.version);
      if (!sameKeys(Object.keys(changes), versions)) throw new Error(`${file}: changes must cover ${versions.join(', ')}, in that order`);
      return { ...item, facts };
    })
    .toSorted((a, b) => b.facts.updated.localeCompare(a.facts.updated));
}

const screenshotFiles = import.meta.glob<ImageMetadata>('../assets/plugins/*/*.svg', { eager: true, import: 'default' });

/** A plugin's screenshot, as the build serves it. */
export function screenshot(slug: string, name: string): ImageMetadata {
  const image = screenshotFiles[`../assets/plugins/${slug}/${name}.svg`];
  if (!image) throw new Error(`src/assets/plugins/${slug}/${name}.svg is missing (catalogue.json names it)`);
  return image;
}

/** `a` before `b` (negative), the same (0) or after: dotted version numbers, part by part. */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The app version on the download page. */
export const appVersion = loadReleases().version;

export const worksWithCurrentApp = (facts: PluginFacts) => compareVersions(facts.minAppVersion, appVersion) <= 0;
