/** Reads content/ as an editor wrote it, for the tests that hold every locale to one set of facts and terms. */
import { readdirSync, readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { factPlaceholder, pricePlaceholder } from '#contract/facts.ts';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';

export const collections = ['articles', 'changelog', 'faq', 'pages', 'plugins'] as const;
export type Collection = (typeof collections)[number];

export interface SourceFile {
  path: string;
  collection: Collection;
  locale: LocaleCode;
  slug: string;
  data: Record<string, unknown>;
  body: string;
}

export function sourceFile(collection: Collection, locale: LocaleCode, slug: string): SourceFile {
  const path = `content/${collection}/${locale}/${slug}.md`;
  const text = readFileSync(path, 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`${path} has no frontmatter`);
  return { path, collection, locale, slug, data: yaml.load(match[1]) as Record<string, unknown>, body: match[2] };
}

export function slugsOf(collection: Collection, locale: LocaleCode): string[] {
  return readdirSync(`content/${collection}/${locale}`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => name.slice(0, -3))
    .sort();
}

export function filesOf(locale: LocaleCode): SourceFile[] {
  return collections.flatMap((collection) => slugsOf(collection, locale).map((slug) => sourceFile(collection, locale, slug)));
}

export function dictionarySource(locale: LocaleCode): Record<string, string> {
  return JSON.parse(readFileSync(`content/i18n/${locale}.json`, 'utf8')) as Record<string, string>;
}

/** Every string a reader sees in a file: frontmatter text (not dates or versions) and the body. */
export function readableText(file: SourceFile): string {
  const strings: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object' && !(value instanceof Date)) Object.values(value).forEach(walk);
  };
  for (const [key, value] of Object.entries(file.data)) if (!['date', 'updated', 'version'].includes(key)) walk(value);
  return [...strings, file.body].join('\n');
}

/**
 * The numbers a text states by itself — not through a fact placeholder, not
 * as a line's list or clause number, not inside a link's address — as
 * integers, so that "1,000", "1 000" and "1.000", or "2026-06-01" and
 * "2026年6月1日", state the same ones.
 */
export function statedNumbers(text: string): Set<number> {
  const stripped = text
    .normalize('NFKC')
    .replace(factPlaceholder, ' ')
    .replace(pricePlaceholder, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[\w.+-]+@[\w.-]+/g, ' ')
    // Names with a number in them (SHA-256, ARM64, x86_64, GPL-3.0) are names, not numbers.
    .replace(/(?<![\p{L}\d])\p{Script=Latin}+[-_]?\d[\w.]*/gu, ' ')
    // A list or clause number opens a line: "1. ", "2) ", "1.1 "; a year opening a sentence is no such number.
    .replace(/^(\s*(#+\s*)?)(\d+(\.\d+)+|\d+[.)])\s/gm, '$1');
  return new Set((stripped.match(/\d+/g) ?? []).map(Number));
}

export { localeCodes, type LocaleCode };
