/** RSS 2.0 and Atom feeds of a locale's articles and change log, built with `feed`. */
import { Feed } from 'feed';
import { getLocale, localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { useTranslations } from '@/i18n/t.ts';
import { changesHtml, releasesOf } from './changelog.ts';
import { byDateDesc, entryHtml, localizedEntries } from './content.ts';
import { site } from './site.ts';

export type FeedKind = 'articles' | 'changelog';

/** A feed with every entry of the collection in that locale, newest first. */
export async function buildFeed(kind: FeedKind, locale: LocaleCode, siteUrl: URL): Promise<Feed> {
  const t = useTranslations(locale);
  const abs = (path: string) => new URL(localizePath(locale, path), siteUrl).href;
  const listPath = kind === 'articles' ? '/article' : '/changelog';
  const feed = new Feed({
    title: `${site.name} · ${t(kind === 'articles' ? 'feed.articles' : 'feed.changelog')}`,
    description: t('site.description'),
    id: abs(listPath),
    link: abs(listPath),
    language: getLocale(locale).tag,
    favicon: new URL(site.icon, siteUrl).href,
    copyright: t('footer.copyright', { year: 2026, name: site.name }),
    feedLinks: { rss: abs(`${listPath}/rss.xml`), atom: abs(`${listPath}/atom.xml`) },
  });
  if (kind === 'articles') {
    for (const { slug, entry } of (await localizedEntries('articles', locale)).toSorted(byDateDesc('date'))) {
      feed.addItem({
        title: entry.data.title,
        id: abs(`/article/${slug}`),
        link: abs(`/article/${slug}`),
        description: entry.data.description,
        content: entryHtml(entry, locale),
        author: [{ name: entry.data.author }],
        category: entry.data.tags.map((name) => ({ name })),
        date: entry.data.date,
      });
    }
  } else {
    for (const release of await releasesOf(locale)) {
      feed.addItem({
        title: `${site.name} ${release.version}`,
        id: abs(`/changelog#${release.slug}`),
        link: abs(`/changelog#${release.slug}`),
        description: release.summary,
        content: changesHtml(release, t),
        date: release.date,
      });
    }
  }
  return feed;
}

/** The feed as an HTTP response in the requested format; `siteUrl` is the endpoint's `site` (astro.config.mjs always sets it). */
export async function feedResponse(kind: FeedKind, format: 'rss' | 'atom', locale: LocaleCode, siteUrl: URL | undefined): Promise<Response> {
  if (!siteUrl) throw new Error('astro.config.mjs sets `site` (SITE_URL)');
  const feed = await buildFeed(kind, locale, siteUrl);
  const body = format === 'rss' ? feed.rss2() : feed.atom1();
  const type = format === 'rss' ? 'application/rss+xml' : 'application/atom+xml';
  return new Response(body, { headers: { 'Content-Type': `${type}; charset=utf-8` } });
}
