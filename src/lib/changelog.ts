/**
 * The change log: content/changelog/index.json lists every release — version,
 * date and the keys of its items — and each locale's file translates that
 * list, so every language describes the same changes (tests/unit/content-facts.test.ts).
 */
import type { Translate, UiKey } from '@/i18n/strings.ts';
import index from '../../content/changelog/index.json';
import type { LocaleCode } from '@/i18n/locales.ts';
import { localizedEntries } from './content.ts';
import { changeKinds } from '@/content-schemas.ts';

export type ChangeKind = (typeof changeKinds)[number];

export interface Release {
  slug: string;
  version: string;
  date: Date;
  summary: string;
  /** Each kind of change with its items' text, in the listed order; kinds without items are left out. */
  sections: { kind: ChangeKind; items: string[] }[];
  /** True when this is the zh-CN text shown in another locale. */
  fallback: boolean;
}

/** Every release in a locale's words, newest first. */
export async function releasesOf(locale: LocaleCode): Promise<Release[]> {
  const entries = new Map((await localizedEntries('changelog', locale)).map((e) => [e.slug, e]));
  return index.map((release) => {
    const translated = entries.get(release.slug);
    if (!translated) throw new Error(`content/changelog/zh-CN/${release.slug}.md is missing`);
    const { summary, items } = translated.entry.data;
    const sections = changeKinds
      .map((kind) => ({ kind, items: (release.sections as Partial<Record<ChangeKind, string[]>>)[kind] ?? [] }))
      .filter((section) => section.items.length)
      .map(({ kind, items: keys }) => ({
        kind,
        items: keys.map((key) => {
          const text = items[key];
          if (!text) throw new Error(`content/changelog/${locale}/${release.slug}.md has no item "${key}"`);
          return text;
        }),
      }));
    return { slug: release.slug, version: release.version, date: new Date(`${release.date}T00:00:00Z`), summary, sections, fallback: translated.fallback };
  });
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** A change item as HTML: its text escaped, with `code` and **bold** as the only markup an item may use. */
function itemHtml(text: string): string {
  return text
    .replace(/[&<>"]/g, (c) => escapes[c])
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

/** A release's changes as HTML, a heading and a list per kind; the page and the feeds show the same. */
export function changesHtml(release: Release, t: Translate<UiKey>): string {
  return release.sections
    .map(({ kind, items }) => `<h3>${t(`changelog.kind.${kind}`)}</h3><ul>${items.map((item) => `<li>${itemHtml(item)}</li>`).join('')}</ul>`)
    .join('');
}
