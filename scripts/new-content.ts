/**
 * New content for editors, written in the source locale (and, with
 * `--locales all` or a list, copies marked untranslated for translators):
 *   npm run new:article -- --slug <slug> --category DR|DG --title "…" --description "…" [--tags "a,b"] [--locales all]
 *   npm run new:faq -- --slug <slug> --group general|account|payment|acceleration --question "…" --answer "…" [--locales all]
 *   npm run new:release -- --version 3.0.1201.0 --summary "…" [--feature "key=text"]… [--improvement "key=text"]… [--fix "key=text"]… [--date YYYY-MM-DD] [--locales all]
 * Prints the files it wrote, or what to change, and exits with status 1 then.
 */
import { parseArgs } from 'node:util';
import { newArticle, newFaq, newRelease, ScaffoldError } from '../src/lib/editorial/scaffold.ts';

const kinds = { article: newArticle, faq: newFaq, release: newRelease } as const;
const [kind, ...rest] = process.argv.slice(2);
const text = { type: 'string' } as const;
const { values } = parseArgs({
  args: rest,
  options: {
    slug: text,
    category: text,
    title: text,
    description: text,
    tags: text,
    group: text,
    question: text,
    answer: text,
    version: text,
    date: text,
    summary: text,
    feature: { type: 'string', multiple: true },
    improvement: { type: 'string', multiple: true },
    fix: { type: 'string', multiple: true },
    locales: text,
  },
});

try {
  if (!(kind in kinds)) throw new ScaffoldError(`Say what to add: ${Object.keys(kinds).join(', ')}`);
  const files = kinds[kind as keyof typeof kinds](values);
  console.log(`Wrote:\n${files.map((file) => `  ${file}`).join('\n')}`);
  console.log(
    'Write the text in the first file; translators remove `untranslated: true` from a copy once it is translated. `npm run dev` shows it, `npm run translations` lists what is left.',
  );
} catch (error) {
  if (!(error instanceof ScaffoldError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
