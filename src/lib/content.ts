/**
 * Reads content collections for one locale. Every locale gets every entry:
 * where a translation is missing (or scaffolded and still `untranslated`),
 * the source locale's entry stands in, marked as a fallback so the page can
 * say so.
 */
import { getCollection, type CollectionEntry, type CollectionKey } from 'astro:content';
import { fillFacts } from '#contract/facts.ts';
import { sourceLocale } from '#contract/locales.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { localePaths } from '@/i18n/paths.ts';

export interface LocalizedEntry<C extends CollectionKey> {
  slug: string;
  entry: CollectionEntry<C>;
  /** True when this is the source locale's content shown in another locale. */
  fallback: boolean;
}

const cache = new Map<string, Promise<LocalizedEntry<CollectionKey>[]>>();

/** Strings anywhere in frontmatter data with their fact placeholders filled; dates and numbers stay as they are. */
function filled<T>(value: T, locale: LocaleCode): T {
  if (typeof value === 'string') return fillFacts(value, locale) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => filled(item, locale)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, filled(item, locale)])) as T;
  }
  return value;
}

/** An entry as the locale reads it: every `{{fact}}` of content/facts.json filled in the locale's format. */
function withFacts<C extends CollectionKey>(entry: CollectionEntry<C>, locale: LocaleCode): CollectionEntry<C> {
  const rendered = entry.rendered && { ...entry.rendered, html: fillFacts(entry.rendered.html, locale) };
  return { ...entry, data: filled(entry.data, locale), rendered };
}

async function load<C extends CollectionKey>(collection: C, locale: LocaleCode): Promise<LocalizedEntry<C>[]> {
  const all = await getCollection(collection);
  const bySlug = new Map<string, LocalizedEntry<C>>();
  for (const entry of all) {
    const [entryLocale, slug] = entry.id.split('/');
    if (entryLocale === locale && (locale === sourceLocale || entry.data.untranslated !== true))
      bySlug.set(slug, { slug, entry: withFacts(entry, locale), fallback: false });
  }
  if (locale !== sourceLocale) {
    for (const entry of all) {
      const [entryLocale, slug] = entry.id.split('/');
      // A stand-in is the source locale's text, so its facts read as that locale writes them.
      if (entryLocale === sourceLocale && !bySlug.has(slug)) bySlug.set(slug, { slug, entry: withFacts(entry, sourceLocale), fallback: true });
    }
  }
  return [...bySlug.values()];
}

/** Every entry of a collection as the given locale shows it (translations first, the source locale's as fallbacks). */
export function localizedEntries<C extends CollectionKey>(collection: C, locale: LocaleCode): Promise<LocalizedEntry<C>[]> {
  const key = `${collection}:${locale}`;
  let entries = cache.get(key);
  if (!entries) {
    entries = load(collection, locale);
    cache.set(key, entries);
  }
  return entries as Promise<LocalizedEntry<C>[]>;
}

/** One entry by slug; throws when even the source locale lacks it, so a broken link fails the build. */
export async function localizedEntry<C extends CollectionKey>(collection: C, locale: LocaleCode, slug: string): Promise<LocalizedEntry<C>> {
  const found = (await localizedEntries(collection, locale)).find((e) => e.slug === slug);
  if (!found) throw new Error(`content/${collection}/${sourceLocale}/${slug}.md is missing`);
  return found;
}

/** Newest first, by a date field. */
export function byDateDesc<T extends { entry: { data: Record<string, unknown> } }>(field: string) {
  return (a: T, b: T) => (b.entry.data[field] as Date).getTime() - (a.entry.data[field] as Date).getTime();
}

/**
 * Markdown links to site pages are written locale-free (`/privacy`); in a
 * locale's page they point to that locale's URL.
 */
export function localizeLinks(html: string, locale: LocaleCode): string {
  return html.replace(/href="(\/(?!\/)[^"]*)"/g, (_, href: string) => `href="${localizePath(locale, href)}"`);
}

/** The rendered HTML of an entry, with its site links localised. */
export function entryHtml(entry: { rendered?: { html: string } }, locale: LocaleCode): string {
  return localizeLinks(entry.rendered?.html ?? '', locale);
}

/** Static paths for one page per entry of a collection in every locale: `{ slug }` params, `{ item }` props. */
export function entryPaths<C extends CollectionKey>(collection: C) {
  return localePaths(async (locale) => (await localizedEntries(collection, locale)).map((item) => ({ params: { slug: item.slug }, props: { item } })));
}
