/**
 * How far each locale's translation has come, page by page and string by
 * string, against the source locale (contract/locales.ts `sourceLocale`):
 *   done      the translation exists and changed after (or with) its source;
 *   missing   no translation, or one scaffolded and still marked
 *             `untranslated: true` (readers see the source with a notice);
 *   outdated  the source changed after the translation last did (git history;
 *             a string's by its part and key, dictionary-history.ts), and
 *             after content/translations.json's `translatedThrough`: the
 *             moment up to which every translation was checked against its
 *             source (a translation written before its source's last edit in
 *             one sitting is no worse for it).
 * Also what must never ship (`refusals`): an interface string a locale lacks,
 * and a fact placeholder that names no fact. `npm run translations` prints
 * it; the build publishes it at /translation-status.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brokenFactPlaceholders } from '#contract/facts.ts';
import { sourceLocale } from '#contract/locales.ts';
import {
  dictionary,
  dictionaryParts,
  dictionaryPath,
  entryPath,
  filesOf,
  localeCodes,
  projectRoot,
  readableText,
  type Collection,
  type Dictionary,
  type DictionaryPart,
  type LocaleCode,
  type SourceFile,
} from './content-files.ts';
import { dictionaryHistory, formerDictionaryFolders } from './dictionary-history.ts';
import { gitHistory, type History } from './history.ts';

export type TranslationState = 'done' | 'missing' | 'outdated';

export const translatedLocales = localeCodes.filter((code) => code !== sourceLocale);

export interface EntryStatus {
  collection: Collection;
  slug: string;
  sourcePath: string;
  /** Each translated locale's state and the file that holds (or would hold) its translation. */
  locales: Record<LocaleCode, { state: TranslationState; path: string }>;
}

/** One part of a locale's dictionary (content/i18n/<locale>.json): its keys the locale lacks, and those whose source changed since. */
export interface DictionaryStatus {
  part: DictionaryPart;
  locale: LocaleCode;
  total: number;
  missing: string[];
  outdated: string[];
}

export interface LocaleSummary {
  pages: Record<TranslationState, number>;
  strings: Record<TranslationState, number>;
}

export interface TranslationStatus {
  sourceLocale: LocaleCode;
  /** False without git history: nothing can be known to be outdated then. */
  history: boolean;
  entries: EntryStatus[];
  dictionaries: DictionaryStatus[];
  summary: Record<LocaleCode, LocaleSummary>;
  /** What CI refuses: interface strings a locale lacks, and fact placeholders naming no fact. */
  refusals: string[];
}

/** Until when (seconds since the epoch) every translation under `root` was checked against its source: content/translations.json. */
function checkedUntil(root: string): number {
  const file = path.join(root, 'content', 'translations.json');
  if (!existsSync(file)) return 0;
  const { translatedThrough } = JSON.parse(readFileSync(file, 'utf8')) as { translatedThrough?: string };
  const time = Date.parse(translatedThrough ?? '');
  if (Number.isNaN(time)) throw new Error(`content/translations.json: "translatedThrough" is a date and time such as "2026-11-28T04:30:00Z"`);
  return time / 1000;
}

type StateOf = (exists: boolean, translated: number | undefined, source: number | undefined) => TranslationState;

/** Outdated only when both times are known, the translation's is older, and the source changed after `since`. */
const stateSince =
  (since: number): StateOf =>
  (exists, translated, source) => {
    if (!exists) return 'missing';
    return translated !== undefined && source !== undefined && translated < source && source > since ? 'outdated' : 'done';
  };

/** Every content file and dictionary under `root`, each read once for everything the status asks of them. */
interface Sources {
  files: Map<LocaleCode, SourceFile[]>;
  dictionaries: Map<LocaleCode, Dictionary>;
}

function readSources(root: string): Sources {
  return {
    files: new Map(localeCodes.map((locale) => [locale, filesOf(locale, root)])),
    dictionaries: new Map(localeCodes.map((locale) => [locale, dictionary(locale, root)])),
  };
}

function entryStatuses(sources: Sources, history: History, stateOf: StateOf): EntryStatus[] {
  // A scaffolded copy still marked untranslated counts as no translation.
  const translated = new Set(
    translatedLocales.flatMap((locale) =>
      sources.files
        .get(locale)!
        .filter((file) => file.data.untranslated !== true)
        .map((file) => file.path),
    ),
  );
  return sources.files.get(sourceLocale)!.map(({ collection, slug, path: sourcePath }): EntryStatus => {
    const locales = {} as EntryStatus['locales'];
    for (const locale of translatedLocales) {
      const file = entryPath(collection, locale, slug);
      locales[locale] = { state: stateOf(translated.has(file), history.fileChanged(file), history.fileChanged(sourcePath)), path: file };
    }
    return { collection, slug, sourcePath, locales };
  });
}

function dictionaryStatuses(sources: Sources, history: History, stateOf: StateOf): DictionaryStatus[] {
  const sourceChanged = dictionaryHistory(history, sourceLocale);
  const source = sources.dictionaries.get(sourceLocale)!;
  return translatedLocales.flatMap((locale) => {
    const changed = dictionaryHistory(history, locale);
    const strings = sources.dictionaries.get(locale)!;
    return dictionaryParts.map((part): DictionaryStatus => {
      const missing: string[] = [];
      const outdated: string[] = [];
      for (const key of Object.keys(source[part])) {
        const state = stateOf(key in strings[part], changed(part, key), sourceChanged(part, key));
        if (state === 'missing') missing.push(key);
        else if (state === 'outdated') outdated.push(key);
      }
      return { part, locale, total: Object.keys(source[part]).length, missing, outdated };
    });
  });
}

/** Every fact placeholder, in every locale's content and strings, that names no fact in content/facts.json. */
function unknownFacts(sources: Sources): string[] {
  const texts = [
    ...[...sources.files.values()].flat().map((file) => [file.path, readableText(file)] as const),
    ...[...sources.dictionaries].flatMap(([locale, parts]) =>
      dictionaryParts.flatMap((part) => Object.entries(parts[part]).map(([key, text]) => [`${dictionaryPath(locale)} ${part} "${key}"`, text] as const)),
    ),
  ];
  return texts.flatMap(([where, text]) =>
    brokenFactPlaceholders(text).map(({ placeholder }) => `${where}: ${placeholder} names no fact in content/facts.json`),
  );
}

const zero = (): Record<TranslationState, number> => ({ done: 0, missing: 0, outdated: 0 });

/** Counts as people read them: "54 done, 1 outdated, 1 missing". */
export const countsText = (counts: Record<TranslationState, number>) => `${counts.done} done, ${counts.outdated} outdated, ${counts.missing} missing`;

/** The status of every translation under `root` (the project by default), from the files and their git history there. */
export function translationStatus(root = projectRoot, history: History = gitHistory(root, ['content', ...formerDictionaryFolders])): TranslationStatus {
  const stateOf = stateSince(checkedUntil(root));
  const sources = readSources(root);
  const entries = entryStatuses(sources, history, stateOf);
  const dictionaries = dictionaryStatuses(sources, history, stateOf);
  const summary = Object.fromEntries(translatedLocales.map((locale) => [locale, { pages: zero(), strings: zero() }])) as TranslationStatus['summary'];
  for (const entry of entries) for (const locale of translatedLocales) summary[locale].pages[entry.locales[locale].state]++;
  for (const { locale, total, missing, outdated } of dictionaries) {
    const strings = summary[locale].strings;
    strings.missing += missing.length;
    strings.outdated += outdated.length;
    strings.done += total - missing.length - outdated.length;
  }
  const refusals = [
    ...dictionaries.flatMap(({ part, locale, missing }) =>
      missing.map((key) => `${dictionaryPath(locale)} lacks ${part} "${key}" (${dictionaryPath(sourceLocale)} has it)`),
    ),
    ...unknownFacts(sources),
  ];
  return { sourceLocale, history: history.available, entries, dictionaries, summary, refusals };
}

let ofThisBuild: TranslationStatus | undefined;

/** The project's status, computed once per process: a build's status page renders it in each locale. */
export const statusOfThisBuild = (): TranslationStatus => (ofThisBuild ??= translationStatus());
