/**
 * Reads content collections for one locale. Every locale gets every entry:
 * where a translation is missing, the zh-CN entry stands in, marked as a
 * fallback so the page can say so (DESIGN §4).
 */
import { getCollection, type CollectionEntry, type CollectionKey } from 'astro:content';
import { defaultLocale, localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { localePaths } from '@/i18n/paths.ts';

export interface LocalizedEntry<C extends CollectionKey> {
  slug: string;
  entry: CollectionEntry<C>;
  /** True when this is zh-CN content shown in another locale. */
  fallback: boolean;
}

const cache = new Map<string, Promise<LocalizedEntry<CollectionKey>[]>>();

async function load<C extends CollectionKey>(collection: C, locale: LocaleCode): Promise<LocalizedEntry<C>[]> {
  const all = await getCollection(collection);
  const bySlug = new Map<string, LocalizedEntry<C>>();
  for (const entry of all) {
    const [entryLocale, slug] = entry.id.split('/');
    if (entryLocale === locale) bySlug.set(slug, { slug, entry, fallback: false });
  }
  if (locale !== defaultLocale) {
    for (const entry of all) {
      const [entryLocale, slug] = entry.id.split('/');
      if (entryLocale === defaultLocale && !bySlug.has(slug)) bySlug.set(slug, { slug, entry, fallback: true });
    }
  }
  return [...bySlug.values()];
}

/** Every entry of a collection as the given locale shows it (translations first, zh-CN fallbacks). */
export function localizedEntries<C extends CollectionKey>(collection: C, locale: LocaleCode): Promise<LocalizedEntry<C>[]> {
  const key = `${collection}:${locale}`;
  let entries = cache.get(key);
  if (!entries) {
    entries = load(collection, locale);
    cache.set(key, entries);
  }
  return entries as Promise<LocalizedEntry<C>[]>;
}

/** One entry by slug; throws when even zh-CN lacks it, so a broken link fails the build. */
export async function localizedEntry<C extends CollectionKey>(collection: C, locale: LocaleCode, slug: string): Promise<LocalizedEntry<C>> {
  const found = (await localizedEntries(collection, locale)).find((e) => e.slug === slug);
  if (!found) throw new Error(`content/${collection}/${defaultLocale}/${slug}.md is missing`);
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
