/**
 * Every locale states the same facts: the legal pages and the FAQ state no
 * number except through content/facts.json; the change log translates one
 * keyed list of items per release; every other page states the numbers its
 * English version states, and no other.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { factPlaceholder, formatFact } from '#contract/facts.ts';
import { sourceLocale } from '#contract/locales.ts';
import releases from '../../content/downloads/releases.json' with { type: 'json' };
import changelog from '../../content/changelog/index.json' with { type: 'json' };
import {
  dictionarySource,
  filesOf,
  localeCodes,
  readableText,
  slugsOf,
  sourceFile,
  statedNumbers,
  type LocaleCode,
  type SourceFile,
} from './content-source.ts';

/** Pages whose every number is a fact: what we promise in writing. */
const legalPages = ['agreement', 'agreement-auto', 'agreement-renew', 'privacy'];
const isStrict = (file: SourceFile) => file.collection === 'faq' || (file.collection === 'pages' && legalPages.includes(file.slug));

/** Numbers written as words, which the digit check would miss. */
const numberWords: Record<LocaleCode, RegExp | undefined> = {
  en: /(?<!\p{L})(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|twice)(?!\p{L})/iu,
  es: /(?<!\p{L})(dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|doce|quince|veinte|treinta)(?!\p{L})/iu,
  it: /(?<!\p{L})(due|tre|quattro|cinque|sette|otto|nove|dieci|dodici|quindici|venti|trenta)(?!\p{L})/iu,
  ru: /(?<!\p{L})(два|две|двух|три|трёх|трех|четыре|четырёх|пять|пяти|шесть|шести|семь|семи|восемь|девять|десять|десяти|пятнадцать|пятнадцати|тридцать|тридцати)(?!\p{L})/iu,
  'zh-CN': /[二两三四五六七八九十百千]+\s*(天|日|次|个|小时|分钟|秒|周|个月|年|岁|字)/u,
  'zh-TW': /[二兩三四五六七八九十百千]+\s*(天|日|次|個|小時|分鐘|秒|週|個月|年|歲|字)/u,
  ja: /[二三四五六七八九十百千]+\s*(日間|日|回|時間|分|秒|週間|か月|ヶ月|年|歳|文字)/u,
  ko: /(?<!\p{L})(두|세|네|다섯|여섯|일곱|열)\s?(번|차례|시간|달)/u,
};

const allFiles = localeCodes.flatMap((locale) => filesOf(locale));

describe('content/facts.json', () => {
  it('names only facts that exist, in content and in UI strings', () => {
    const unknown: string[] = [];
    const check = (where: string, text: string) => {
      for (const [, path, modifier] of text.matchAll(factPlaceholder)) {
        try {
          formatFact(path, 'en', modifier as '|number' | '|or' | undefined);
        } catch {
          unknown.push(`${where}: {{${path}}}`);
        }
      }
    };
    for (const file of allFiles) check(file.path, readableText(file));
    for (const locale of localeCodes) for (const [key, text] of Object.entries(dictionarySource(locale))) check(`content/i18n/${locale}.json ${key}`, text);
    expect(unknown).toEqual([]);
  });

  it('formats prices as CNY in every language, never as a bare ¥', () => {
    expect(formatFact('cloudIdle.monthlyPrice', 'zh-CN')).toBe('¥6');
    expect(formatFact('cloudIdle.monthlyPrice', 'en')).toBe('CN¥6');
    // Japanese writes yuan after the number (its glossary), not Intl's "元 6".
    expect(formatFact('cloudIdle.monthlyPrice', 'ja')).toBe('6元');
    expect(formatFact('autoRenew.retryWindow', 'ru')).toBe('48 часов');
    expect(formatFact('autoRenew.retryWindow', 'en', '|number')).toBe('48');
    expect(formatFact('recharge.amounts', 'en', '|or')).toBe('CN¥50, CN¥100, CN¥200 or CN¥500');
    expect(() => formatFact('autoRenew.noSuchFact', 'en')).toThrow(/names no fact/);
  });

  it.each(localeCodes)('%s writes no price by hand', (locale) => {
    const byHand = /[¥￥]\s?\d|\d\s?(元|円|CNY|yuan|юан)/iu;
    const found = [
      ...filesOf(locale)
        .filter((file) => byHand.test(readableText(file)))
        .map((file) => file.path),
      ...Object.entries(dictionarySource(locale))
        .filter(([, text]) => byHand.test(text))
        .map(([key]) => `content/i18n/${locale}.json ${key}`),
    ];
    expect(found, 'write prices as {{fact}} or {{cny:50}} so that every locale formats them as CNY').toEqual([]);
  });

  it('names the Linux archive format the download packages have', () => {
    const archives = releases.platforms.linux.filter((p) => p.kind === 'tar').map((p) => p.file);
    expect(archives.length).toBeGreaterThan(0);
    for (const file of archives) expect(file.endsWith(formatFact('systems.linuxArchive', 'en'))).toBe(true);
  });
});

describe('legal pages and the FAQ state numbers only as facts', () => {
  const strict = allFiles.filter(isStrict);

  it('covers every legal page of every locale, and every FAQ entry (translations may still be missing)', () => {
    for (const locale of localeCodes) expect(strict.filter((file) => file.locale === locale && file.collection === 'pages')).toHaveLength(legalPages.length);
    expect(strict.filter((file) => file.locale === sourceLocale && file.collection === 'faq')).toHaveLength(slugsOf('faq', sourceLocale).length);
  });

  it.each(localeCodes)('%s writes no number of its own', (locale) => {
    const found: string[] = [];
    for (const file of strict.filter((f) => f.locale === locale)) {
      const text = readableText(file);
      const digits = [...statedNumbers(text)];
      if (digits.length) found.push(`${file.path}: ${digits.join(', ')}`);
      const word = numberWords[locale]?.exec(text.replace(factPlaceholder, ' '));
      if (word) found.push(`${file.path}: "${word[0]}"`);
    }
    expect(found, 'write these as {{fact}} placeholders from content/facts.json').toEqual([]);
  });
});

describe('the change log', () => {
  it('lists each release once, newest first, with its items', () => {
    const dates = changelog.map((release) => release.date);
    expect(dates).toEqual(dates.toSorted().reverse());
    expect(new Set(changelog.map((r) => r.version)).size).toBe(changelog.length);
    for (const release of changelog) expect(Object.values(release.sections).flat().length).toBeGreaterThan(0);
  });

  it.each(localeCodes)('%s translates exactly the items of every release, stating the same numbers as English', (locale) => {
    expect(slugsOf('changelog', locale)).toEqual(changelog.map((r) => r.slug).sort());
    const problems: string[] = [];
    for (const release of changelog) {
      const file = sourceFile('changelog', locale, release.slug);
      const english = sourceFile('changelog', 'en', release.slug);
      const items = (file.data.items ?? {}) as Record<string, string>;
      const keys = Object.values(release.sections).flat();
      expect(Object.keys(items).sort(), file.path).toEqual([...keys].sort());
      expect(file.body.trim(), `${file.path} keeps its text in summary and items`).toBe('');
      const englishItems = english.data.items as Record<string, string>;
      const pairs: [string, string, string][] = [
        ['summary', String(file.data.summary), String(english.data.summary)],
        ...keys.map((k): [string, string, string] => [k, items[k] ?? '', englishItems[k]]),
      ];
      for (const [key, text, reference] of pairs) {
        const stated = [...statedNumbers(text)].sort();
        const expected = [...statedNumbers(reference)].sort();
        if (stated.join() !== expected.join()) problems.push(`${file.path} ${key}: ${stated.join(', ') || 'none'} (English: ${expected.join(', ') || 'none'})`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('every other page states the numbers of its English version', () => {
  const english = new Map(filesOf('en').map((file) => [`${file.collection}/${file.slug}`, file]));
  const others = allFiles.filter((file) => !isStrict(file) && file.collection !== 'changelog' && file.locale !== 'en');

  it.each(localeCodes.filter((l) => l !== 'en'))('%s', (locale) => {
    const problems: string[] = [];
    for (const file of others.filter((f) => f.locale === locale)) {
      const reference = english.get(`${file.collection}/${file.slug}`);
      if (!reference) continue;
      const stated = statedNumbers(readableText(file));
      const expected = statedNumbers(readableText(reference));
      const extra = [...stated].filter((n) => !expected.has(n));
      const missing = [...expected].filter((n) => !stated.has(n));
      if (extra.length || missing.length) problems.push(`${file.path}: states ${extra.join(', ') || '–'}; leaves out ${missing.join(', ') || '–'}`);
    }
    expect(problems).toEqual([]);
  });

  it.each(localeCodes.filter((l) => l !== 'en'))('%s UI strings state the numbers and facts of the English ones', (locale) => {
    const reference = dictionarySource('en');
    const dictionary = dictionarySource(locale);
    const factsOf = (text: string) => [...text.matchAll(factPlaceholder)].map((m) => m[0]).sort();
    const problems = Object.keys(reference).filter((key) => {
      const a = [...statedNumbers(dictionary[key] ?? '')].sort().join();
      const b = [...statedNumbers(reference[key])].sort().join();
      return a !== b || factsOf(dictionary[key] ?? '').join() !== factsOf(reference[key]).join();
    });
    expect(problems).toEqual([]);
  });
});

describe('the English reference', () => {
  it('exists for every page of every locale', () => {
    for (const file of allFiles) expect(readFileSync(`content/${file.collection}/en/${file.slug}.md`, 'utf8').length, file.path).toBeGreaterThan(0);
  });
});
