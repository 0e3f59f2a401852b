/**
 * `npm run translations [-- --locale ja] [-- --summary]`: the translation
 * status of every page and interface string (src/lib/editorial/status.ts),
 * as a table per collection, the interface strings each locale lacks or has
 * fallen behind on, and a summary per locale. `--locale` shows one locale
 * (with the keys of its unfinished strings); `--summary` only the summary.
 *
 * Exits with status 1 only on what must not ship — an interface string a
 * locale lacks, a fact placeholder naming no fact — never on a page that is
 * missing or outdated: those fall back to the source with a notice.
 */
import { parseArgs } from 'node:util';
import { localeCodes, type LocaleCode } from '../src/lib/editorial/content-files.ts';
import { countsText, translatedLocales, translationStatus, type TranslationState } from '../src/lib/editorial/status.ts';

const { values } = parseArgs({ options: { locale: { type: 'string' }, summary: { type: 'boolean', default: false } } });
if (values.locale !== undefined && !translatedLocales.includes(values.locale as LocaleCode)) {
  console.error(`--locale is one of ${translatedLocales.join(', ')} (${localeCodes.find((code) => !translatedLocales.includes(code))} is the source)`);
  process.exit(2);
}
const shown = values.locale ? [values.locale as LocaleCode] : translatedLocales;
const status = translationStatus();

const mark: Record<TranslationState, string> = { done: '✓', missing: 'missing', outdated: 'outdated' };
const column = 9;
const row = (label: string, cells: string[], width: number) => `${label.padEnd(width)}${cells.map((cell) => cell.padEnd(column)).join('')}`.trimEnd();

console.log(`Translation status against ${status.sourceLocale}, the source locale`);
if (!status.history) console.log('No git history here: pages and strings cannot be known to be outdated, only done or missing.');

if (!values.summary) {
  const width = Math.max(...status.entries.map((entry) => entry.slug.length)) + 4;
  for (const collection of new Set(status.entries.map((entry) => entry.collection))) {
    console.log(`\n${row(`content/${collection}`, shown, width)}`);
    for (const entry of status.entries.filter((item) => item.collection === collection)) {
      console.log(
        row(
          `  ${entry.slug}`,
          shown.map((locale) => mark[entry.locales[locale].state]),
          width,
        ),
      );
    }
  }
  console.log('\nInterface strings (keys the locale lacks or whose source changed since)');
  for (const dictionary of status.dictionaries.filter((item) => shown.includes(item.locale))) {
    const { part, locale, total, missing, outdated } = dictionary;
    if (!missing.length && !outdated.length) continue;
    console.log(`  content/i18n/${locale}.json ${part}: ${missing.length} missing, ${outdated.length} outdated of ${total}`);
    if (values.locale) for (const key of [...missing.map((k) => `missing   ${k}`), ...outdated.map((k) => `outdated  ${k}`)]) console.log(`    ${key}`);
  }
}

console.log('\nSummary per locale');
for (const locale of shown) {
  const { pages, strings } = status.summary[locale];
  console.log(`  ${locale.padEnd(6)} pages ${countsText(pages)}; interface strings ${countsText(strings)}`);
}

if (status.refusals.length) {
  console.error(`\n${status.refusals.length} problem(s) that must be fixed before this ships:`);
  for (const refusal of status.refusals) console.error(`  ✗ ${refusal}`);
  process.exitCode = 1;
}
