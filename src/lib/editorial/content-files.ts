/**
 * Reads content/ as an editor wrote it, file by file: for the translation
 * status, the editor's checks and the content tests. Paths are relative to
 * the project's root (`content/articles/ja/getting-started.md`), as editors
 * and git name them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';

/** The collections written per locale, one markdown file per entry (src/content.config.ts). */
export const collections = ['articles', 'changelog', 'faq', 'pages', 'plugins'] as const;
export type Collection = (typeof collections)[number];

/**
 * The parts of a locale's one dictionary, content/i18n/<locale>.json, each a
 * flat object of strings: the site's interface, the operators' console, the
 * server's messages, and the messages both the site and the server say.
 */
export const dictionaryParts = ['site', 'console', 'server', 'messages'] as const;
export type DictionaryPart = (typeof dictionaryParts)[number];
export type Dictionary = Record<DictionaryPart, Record<string, string>>;

/** The project's root: where `npm run …` (and so the build, the tests and the scripts) runs. */
export const projectRoot = process.cwd();

export interface SourceFile {
  path: string;
  collection: Collection;
  locale: LocaleCode;
  slug: string;
  data: Record<string, unknown>;
  body: string;
  /** The whole file as written, frontmatter included, for checks that name a line. */
  text: string;
  /** The line of the file the body starts on, so a problem in the body can name its line. */
  bodyLine: number;
}

export const entryPath = (collection: Collection, locale: LocaleCode, slug: string) => `content/${collection}/${locale}/${slug}.md`;

/** Frontmatter between `---` lines, then the body. */
const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

export function sourceFile(collection: Collection, locale: LocaleCode, slug: string, root = projectRoot): SourceFile {
  const file = entryPath(collection, locale, slug);
  const text = readFileSync(path.join(root, file), 'utf8');
  const match = frontmatter.exec(text);
  if (!match) throw new Error(`${file} has no frontmatter: it starts with a line "---", the fields, and another "---"`);
  const data = (yaml.load(match[1]) ?? {}) as Record<string, unknown>;
  return { path: file, collection, locale, slug, data, body: match[2], text, bodyLine: match[1].split('\n').length + 3 };
}

export function slugsOf(collection: Collection, locale: LocaleCode, root = projectRoot): string[] {
  const folder = path.join(root, 'content', collection, locale);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md'))
    .map((name) => name.slice(0, -3))
    .sort();
}

export function filesOf(locale: LocaleCode, root = projectRoot): SourceFile[] {
  return collections.flatMap((collection) => slugsOf(collection, locale, root).map((slug) => sourceFile(collection, locale, slug, root)));
}

export const dictionaryPath = (locale: LocaleCode) => `content/i18n/${locale}.json`;

/** A locale's dictionary as written: a part it lacks, or a file that is missing, is empty. */
export function dictionary(locale: LocaleCode, root = projectRoot): Dictionary {
  const file = path.join(root, dictionaryPath(locale));
  const written = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Dictionary>) : {};
  return Object.fromEntries(dictionaryParts.map((part) => [part, written[part] ?? {}])) as Dictionary;
}

/** The site's own interface strings of a locale, keyed as the site names them: the `site` part's, and the `console` part's under `console.`. */
export function dictionarySource(locale: LocaleCode, root = projectRoot): Record<string, string> {
  const { site, console: operators } = dictionary(locale, root);
  return { ...site, ...Object.fromEntries(Object.entries(operators).map(([key, text]) => [`console.${key}`, text])) };
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

export { localeCodes, type LocaleCode };
