/** Reads content/ as an editor wrote it, for the tests that hold every locale to one set of facts and terms. */
import { factPlaceholder, pricePlaceholder } from '#contract/facts.ts';
import { filesOf as everyFileOf, type LocaleCode, type SourceFile } from '../../src/lib/editorial/content-files.ts';

/** The files a locale has written: a copy scaffolded for translators (`untranslated: true`) is still the source's text. */
export const filesOf = (locale: LocaleCode): SourceFile[] => everyFileOf(locale).filter((file) => file.data.untranslated !== true);

export {
  collections,
  dictionary,
  dictionarySource,
  localeCodes,
  readableText,
  slugsOf,
  sourceFile,
  type Collection,
  type LocaleCode,
  type SourceFile,
} from '../../src/lib/editorial/content-files.ts';

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
