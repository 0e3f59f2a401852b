/**
 * One glossary per locale (content/glossary/<locale>.json): the terms a locale
 * uses, the names of its documents, and the variants it never writes — in
 * content and in UI strings alike.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { finder, prose } from '../../src/lib/editorial/checks.ts';
import { dictionary, dictionarySource, filesOf, localeCodes, readableText, sourceFile, type LocaleCode } from './content-source.ts';

interface Glossary {
  register: string;
  terms: Record<string, string>;
  documents: Record<string, string>;
  avoid: Record<string, string>;
}

const glossaryOf = (locale: LocaleCode) => JSON.parse(readFileSync(`content/glossary/${locale}.json`, 'utf8')) as Glossary;

function textsOf(locale: LocaleCode): [string, string][] {
  return [
    ...filesOf(locale).map((file): [string, string] => [file.path, prose(readableText(file))]),
    ...Object.entries(dictionary(locale)).flatMap(([part, strings]) =>
      Object.entries(strings).map(([key, text]): [string, string] => [`content/i18n/${locale}.json ${part} ${key}`, prose(text)]),
    ),
  ];
}

const english = glossaryOf('en');

describe('glossaries', () => {
  it.each(localeCodes)('%s defines every term and document name of the English one', (locale) => {
    const glossary = glossaryOf(locale);
    expect(glossary.register.length).toBeGreaterThan(20);
    expect(Object.keys(glossary.terms).sort()).toEqual(Object.keys(english.terms).sort());
    expect(Object.keys(glossary.documents).sort()).toEqual(Object.keys(english.documents).sort());
  });

  it.each(localeCodes)('%s writes none of the variants it avoids', (locale) => {
    const found: string[] = [];
    const avoided = Object.entries(glossaryOf(locale).avoid).map(([variant, instead]) => [finder(variant), variant, instead] as const);
    for (const [where, text] of textsOf(locale)) {
      for (const [pattern, variant, instead] of avoided) if (pattern.test(text)) found.push(`${where}: "${variant}" → ${instead}`);
    }
    expect(found).toEqual([]);
  });

  it.each(localeCodes)('%s uses each of its terms', (locale) => {
    const texts = textsOf(locale).map(([, text]) => text);
    const unused = Object.entries(glossaryOf(locale).terms).filter(([, term]) => !texts.some((text) => finder(term).test(text)));
    expect(unused).toEqual([]);
  });

  it.each(localeCodes)('%s names each document the same in its title, footer and login form', (locale) => {
    const { documents } = glossaryOf(locale);
    for (const [slug, name] of Object.entries(documents)) expect(sourceFile('pages', locale, slug).data.title, slug).toBe(name);
    const ui = dictionarySource(locale);
    expect(ui['footer.agreement']).toBe(documents.agreement);
    expect(ui['footer.privacy']).toBe(documents.privacy);
  });
});
