/**
 * What an editor can get wrong in content/, found before a reader does, each
 * problem with its file, its line and what to write instead: frontmatter the
 * collection's schema refuses, a fact placeholder naming no fact, a variant
 * the locale's glossary avoids, a link to a site page that does not exist (in
 * every locale), and an image without alternative text. The build stops on
 * any of them and `astro dev` reports them as files change
 * (src/integrations/editorial-checks.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type * as z from 'zod';
import { brokenFactPlaceholders, factPlaceholder, pricePlaceholder } from '#contract/facts.ts';
import { sourceLocale } from '#contract/locales.ts';
import * as schemas from '../../content-schemas.ts';
import { entryUrl } from '../content-urls.ts';
import { collections, entryPath, localeCodes, projectRoot, slugsOf, sourceFile, type LocaleCode, type SourceFile } from './content-files.ts';

export interface Problem {
  file: string;
  line: number;
  message: string;
}

export const formatProblem = ({ file, line, message }: Problem) => `${file}:${line}  ${message}`;

interface Glossary {
  avoid: Record<string, string>;
}

/** What a reader reads: link addresses, URLs, code and fact placeholders are not prose. */
export function prose(text: string): string {
  return text
    .replace(factPlaceholder, ' ')
    .replace(pricePlaceholder, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/`[^`]*`/g, ' ');
}

/** Alphabetic words match whole and in any case; CJK terms have no word boundaries to respect. */
export function finder(term: string): RegExp {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return /[\p{Script=Latin}\p{Script=Cyrillic}]/u.test(term) ? new RegExp(`(?<!\\p{L})${escaped}(?!\\p{L})`, 'iu') : new RegExp(escaped, 'u');
}

/** The paths of the site's pages, without locale prefix, from src/pages (dynamic routes left out: their entries are added from content). */
function staticPaths(root: string): Set<string> {
  const pages = path.join(root, 'src', 'pages', '[...locale]');
  const found = new Set<string>(['/']);
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('[')) continue;
      if (entry.isDirectory()) walk(path.join(folder, entry.name), `${prefix}/${entry.name}`);
      else if (entry.name.endsWith('.astro')) found.add(entry.name === 'index.astro' ? prefix || '/' : `${prefix}/${entry.name.slice(0, -'.astro'.length)}`);
    }
  };
  if (existsSync(pages)) walk(pages, '');
  found.add('/article');
  found.add('/plugin');
  for (const category of ['dr', 'dg']) found.add(`/article/category/${category}`);
  return found;
}

export interface SiteMap {
  paths: Set<string>;
  /** The slugs links may name after `/article/` and `/plugin/`. */
  slugs: Record<'articles' | 'plugins', string[]>;
}

/** Every page a content link may point to: the site's pages and each entry's page or anchor. */
export function siteMap(root = projectRoot): SiteMap {
  const paths = staticPaths(root);
  for (const collection of collections) {
    for (const slug of slugsOf(collection, sourceLocale, root)) {
      const url = entryUrl(collection, slug);
      if (url) paths.add(url.split('#')[0]);
    }
  }
  return { paths, slugs: { articles: slugsOf('articles', sourceLocale, root), plugins: slugsOf('plugins', sourceLocale, root) } };
}

/** The 1-based line of `index` in `text`, counted from `firstLine`. */
const lineAt = (text: string, index: number, firstLine: number) => firstLine + text.slice(0, index).split('\n').length - 1;

function frontmatterProblems(file: SourceFile, raw: string): Problem[] {
  const result = (schemas[file.collection] as z.ZodType).safeParse(file.data);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    const at = raw.split('\n').findIndex((line) => line.startsWith(`${field}:`));
    const where = issue.path.join('.');
    return { file: file.path, line: at < 0 ? 1 : at + 1, message: `frontmatter "${where || 'fields'}": ${issue.message}` };
  });
}

function factProblems(file: SourceFile, raw: string): Problem[] {
  return brokenFactPlaceholders(raw).map(({ placeholder, index }) => ({
    file: file.path,
    line: lineAt(raw, index, 1),
    message: `${placeholder} names no fact: write one of content/facts.json's (such as {{cloudIdle.monthlyPrice}}), or add the fact there`,
  }));
}

function glossaryProblems(file: SourceFile, raw: string, glossary: Glossary): Problem[] {
  const problems: Problem[] = [];
  // In the frontmatter only the values are text: a key (a change log item's, say) is a name.
  const lines = raw.split('\n').map((line, index) => (index < file.bodyLine - 1 ? line.replace(/^\s*[\w.-]+:\s*/, '') : line));
  for (const [variant, instead] of Object.entries(glossary.avoid)) {
    const pattern = finder(variant);
    lines.forEach((text, index) => {
      if (pattern.test(prose(text)))
        problems.push({ file: file.path, line: index + 1, message: `"${variant}" is a variant the ${file.locale} glossary avoids: ${instead}` });
    });
  }
  return problems;
}

function linkProblems(file: SourceFile, map: SiteMap, root: string): Problem[] {
  const problems: Problem[] = [];
  for (const match of file.body.matchAll(/(!?)\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const [, bang, text, target] = match;
    const line = lineAt(file.body, match.index, file.bodyLine);
    if (bang) {
      if (!text.trim())
        problems.push({
          file: file.path,
          line,
          message: `the image ${target} has no alternative text: write what it shows between the brackets, ![…](${target})`,
        });
      continue;
    }
    if (!target.startsWith('/') || target.startsWith('//')) continue;
    const [pathname] = target.split(/[?#]/);
    if (path.extname(pathname)) {
      if (!existsSync(path.join(root, 'public', pathname)))
        problems.push({ file: file.path, line, message: `the link ${target} names a file that public/ does not hold` });
      continue;
    }
    const page = pathname.replace(/\/$/, '') || '/';
    if (map.paths.has(page)) continue;
    const [, section, slug] = /^\/(article|plugin)\/([^/]+)$/.exec(page) ?? [];
    const known = section === 'article' ? map.slugs.articles : section === 'plugin' ? map.slugs.plugins : undefined;
    const hint = known
      ? `no ${section} has the slug "${slug}"; the ${section}s are ${known.join(', ')}`
      : 'no page of the site has this path; link a page without its locale prefix, such as /download or /article/getting-started';
    problems.push({ file: file.path, line, message: `the link ${target} leads nowhere: ${hint}` });
  }
  for (const match of file.body.matchAll(/<img\b[^>]*>/gi)) {
    if (!/\balt="[^"]+"/i.test(match[0]))
      problems.push({
        file: file.path,
        line: lineAt(file.body, match.index, file.bodyLine),
        message: 'an <img> without alt text: add alt="…" saying what it shows',
      });
  }
  return problems;
}

function glossaryOf(root: string, locale: LocaleCode): Glossary {
  const file = path.join(root, 'content', 'glossary', `${locale}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Glossary) : { avoid: {} };
}

/** The problems of one content file, against its locale's glossary and the site's pages. */
function checkFile(file: SourceFile, map: SiteMap, glossary: Glossary, root: string): Problem[] {
  // A copy scaffolded for translators is still the source's text, which another locale's glossary does not describe.
  const wording = file.data.untranslated === true ? [] : glossaryProblems(file, file.text, glossary);
  return [...frontmatterProblems(file, file.text), ...factProblems(file, file.text), ...wording, ...linkProblems(file, map, root)];
}

/** Every problem of every content file, in every locale. A file that cannot be read at all is one problem. */
export function checkContent(root = projectRoot): Problem[] {
  const map = siteMap(root);
  const problems: Problem[] = [];
  for (const locale of localeCodes) {
    const glossary = glossaryOf(root, locale);
    for (const collection of collections)
      for (const slug of slugsOf(collection, locale, root)) {
        try {
          problems.push(...checkFile(sourceFile(collection, locale, slug, root), map, glossary, root));
        } catch (error) {
          problems.push({ file: entryPath(collection, locale, slug), line: 1, message: error instanceof Error ? error.message : String(error) });
        }
      }
  }
  return problems;
}
