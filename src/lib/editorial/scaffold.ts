/**
 * New content in one step (`npm run new:article`, `new:faq`, `new:release`):
 * the source locale's file with complete, valid frontmatter and a first
 * paragraph, and, for the locales asked for, copies marked
 * `untranslated: true` for translators (readers see the source with the
 * fallback notice until the mark is removed). Refuses, in the editor's words,
 * a slug or version that exists and a value the site would not accept.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { sourceLocale } from '#contract/locales.ts';
import * as schemas from '../../content-schemas.ts';
import { entryPath, localeCodes, projectRoot, slugsOf, sourceFile, type Collection, type LocaleCode } from './content-files.ts';

/** A mistake in what the editor asked for; its message says what to write instead. */
export class ScaffoldError extends Error {}

/** What the build accepts, from the schemas it checks with. */
const articleCategories = schemas.articles.shape.category.options;
const faqGroups = schemas.faq.shape.group.options;

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function checkSlug(slug: string | undefined): string {
  if (!slug) throw new ScaffoldError('--slug is the name of the new file and its URL, such as --slug new-plugin-store');
  if (!slugPattern.test(slug))
    throw new ScaffoldError(`--slug "${slug}" may hold only lower-case letters, digits and single hyphens, such as new-plugin-store`);
  return slug;
}

function required(value: string | undefined, flag: string, what: string): string {
  if (!value?.trim()) throw new ScaffoldError(`--${flag} is ${what}, written in ${sourceLocale}`);
  return value.trim();
}

/** The locales to scaffold translations for: none, `all`, or a comma-separated list. */
export function translationLocales(asked: string | undefined): LocaleCode[] {
  if (!asked) return [];
  if (asked === 'all') return localeCodes.filter((code) => code !== sourceLocale);
  return asked.split(',').map((code) => {
    const locale = localeCodes.find((known) => known.toLowerCase() === code.trim().toLowerCase());
    if (!locale) throw new ScaffoldError(`--locales names ${code}, which is not one of ${localeCodes.join(', ')} (or "all")`);
    if (locale === sourceLocale) throw new ScaffoldError(`--locales lists ${sourceLocale}, the source locale, which the new file is written in anyway`);
    return locale;
  });
}

const today = () => new Date().toISOString().slice(0, 10);

/** A markdown file: YAML frontmatter (strings quoted, as the other files have them) and a body. */
function markdown(data: Record<string, unknown>, body: string): string {
  return `---\n${yaml.dump(data, { quotingType: '"', forceQuotes: true, lineWidth: -1 })}---\n${body ? `\n${body}\n` : ''}`;
}

function writeNew(root: string, file: string, text: string): void {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text, { flag: 'wx' });
}

/** Writes the source file and the translations' copies; answers the files written. */
function writeEntry(root: string, collection: Collection, slug: string, data: Record<string, unknown>, body: string, locales: LocaleCode[]): string[] {
  for (const locale of localeCodes) {
    if (existsSync(path.join(root, entryPath(collection, locale, slug))))
      throw new ScaffoldError(`${entryPath(collection, locale, slug)} already exists: choose another --slug, or edit that file`);
  }
  const files = [entryPath(collection, sourceLocale, slug), ...locales.map((locale) => entryPath(collection, locale, slug))];
  writeNew(root, files[0], markdown(data, body));
  for (const file of files.slice(1)) writeNew(root, file, markdown({ ...data, untranslated: true }, body));
  return files;
}

/** The author line of the source locale's newest article, so a new one signs as the others do. */
function houseAuthor(root: string): string {
  const newest = slugsOf('articles', sourceLocale, root)
    .map((slug) => sourceFile('articles', sourceLocale, slug, root).data)
    .sort((a, b) => new Date(String(b.date)).getTime() - new Date(String(a.date)).getTime())[0];
  return typeof newest?.author === 'string' ? newest.author : 'Beacon Toolkit';
}

export interface ArticleRequest {
  slug?: string;
  category?: string;
  title?: string;
  description?: string;
  tags?: string;
  locales?: string;
}

export function newArticle(request: ArticleRequest, root = projectRoot): string[] {
  const slug = checkSlug(request.slug);
  if (!articleCategories.includes(request.category as (typeof articleCategories)[number]))
    throw new ScaffoldError(`--category is DR (news) or DG (a guide), not "${request.category ?? ''}"`);
  const title = required(request.title, 'title', 'the article’s title (at most 90 characters)');
  if ([...title].length > 90) throw new ScaffoldError(`--title has ${[...title].length} characters; an article’s title has at most 90`);
  const description = required(request.description, 'description', 'one or two sentences for lists and search results (at most 200 characters)');
  if ([...description].length > 200)
    throw new ScaffoldError(`--description has ${[...description].length} characters; at most 200 fit lists and search results`);
  const tags = (request.tags ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  if (tags.length > 4) throw new ScaffoldError(`--tags lists ${tags.length} tags; an article has at most 4`);
  const data = { title, description, category: request.category, date: today(), author: houseAuthor(root), tags };
  return writeEntry(root, 'articles', slug, data, `## ${title}\n\n${description}`, translationLocales(request.locales));
}

export interface FaqRequest {
  slug?: string;
  group?: string;
  question?: string;
  answer?: string;
  locales?: string;
}

/** FAQ files are numbered in the order they are asked: `<nn>-<slug>.md`, nn being the question's `order`. */
export function newFaq(request: FaqRequest, root = projectRoot): string[] {
  const slug = checkSlug(request.slug);
  if (!faqGroups.includes(request.group as (typeof faqGroups)[number]))
    throw new ScaffoldError(`--group is one of ${faqGroups.join(', ')}, not "${request.group ?? ''}"`);
  const question = required(request.question, 'question', 'the question as a reader would ask it');
  const answer = required(request.answer, 'answer', 'the answer’s first paragraph (continue it in the file)');
  const existing = slugsOf('faq', sourceLocale, root);
  if (existing.some((name) => name.replace(/^\d+-/, '') === slug))
    throw new ScaffoldError(`A question with the slug "${slug}" exists already: choose another --slug`);
  const order = Math.max(0, ...existing.map((name) => Number(/^(\d+)-/.exec(name)?.[1] ?? 0))) + 1;
  const data = { question, order, group: request.group };
  return writeEntry(root, 'faq', `${String(order).padStart(2, '0')}-${slug}`, data, answer, translationLocales(request.locales));
}

export interface ReleaseRequest {
  version?: string;
  date?: string;
  summary?: string;
  /** Each section's items as `key=text`: the key (lower-case words joined by hyphens) and the item in the source locale. */
  feature?: string[];
  improvement?: string[];
  fix?: string[];
  locales?: string;
}

interface Release {
  slug: string;
  version: string;
  date: string;
  sections: Partial<Record<(typeof schemas.changeKinds)[number], string[]>>;
}

const sectionFlags = { features: 'feature', improvements: 'improvement', fixes: 'fix' } as const;

/** A release: its entry at the top of content/changelog/index.json and its text per locale. */
export function newRelease(request: ReleaseRequest, root = projectRoot): string[] {
  const version = request.version ?? '';
  if (!/^\d+\.\d+\.\d{4}\.\d+$/.test(version)) throw new ScaffoldError(`--version is the app's four-part version, such as 3.0.1201.0, not "${version}"`);
  const date = request.date ?? today();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)))
    throw new ScaffoldError(`--date is written YYYY-MM-DD, such as ${today()}, not "${date}"`);
  const summary = required(request.summary, 'summary', 'one sentence on what the release brings');
  const indexFile = path.join(root, 'content', 'changelog', 'index.json');
  const releases = JSON.parse(readFileSync(indexFile, 'utf8')) as Release[];
  if (releases.some((release) => release.version === version)) throw new ScaffoldError(`Version ${version} is in content/changelog/index.json already`);
  const sections: Release['sections'] = {};
  const items: Record<string, string> = {};
  for (const section of schemas.changeKinds) {
    const flag = sectionFlags[section];
    for (const item of request[flag] ?? []) {
      const [, key, text] = /^([^=]*)=(.*)$/s.exec(item) ?? [];
      if (!key || !slugPattern.test(key.trim()) || !text?.trim())
        throw new ScaffoldError(`--${flag} "${item}" is a key and the item's text in ${sourceLocale}: --${flag} "faster-start=…"`);
      if (key.trim() in items) throw new ScaffoldError(`The item key "${key.trim()}" appears twice: each item of a release has a key of its own`);
      items[key.trim()] = text.trim();
      (sections[section] ??= []).push(key.trim());
    }
  }
  if (!Object.keys(items).length)
    throw new ScaffoldError('A release lists at least one item: --feature, --improvement or --fix "key=text", each as often as needed');
  const slug = `v${version.replaceAll('.', '-')}`;
  const files = writeEntry(root, 'changelog', slug, { summary, items }, '', translationLocales(request.locales));
  writeFileSync(indexFile, `${JSON.stringify([{ slug, version, date, sections }, ...releases], null, 2)}\n`);
  return ['content/changelog/index.json', ...files];
}
