/**
 * The editor's checks (src/lib/editorial/checks.ts), on a copy of content/
 * with one mistake at a time: each names the file, the line and what to
 * write instead; the content as it is has none.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkContent, formatProblem } from '../../src/lib/editorial/checks.ts';

let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'beacon-checks-'));
  cpSync('content', path.join(root, 'content'), { recursive: true });
  cpSync('src/pages', path.join(root, 'src/pages'), { recursive: true });
  cpSync('public', path.join(root, 'public'), { recursive: true });
});

/** The problems after `change` is made to `file` (relative to the copy), with the file put back afterwards. */
function problemsWith(file: string, change: (text: string) => string): string[] {
  const full = path.join(root, file);
  const original = readFileSync(full, 'utf8');
  writeFileSync(full, change(original));
  try {
    return checkContent(root).map(formatProblem);
  } finally {
    writeFileSync(full, original);
  }
}

const article = 'content/articles/ja/getting-started.md';
/** The line number of the first line of `file` that contains `text`. */
const lineOf = (file: string, text: string) =>
  readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text)) + 1;

describe('the editor’s checks', () => {
  it('find nothing in content/ as it is', () => {
    expect(checkContent().map(formatProblem)).toEqual([]);
  });

  it('name a frontmatter field the collection refuses, on its line', () => {
    expect(problemsWith(article, (text) => text.replace(/^category: .*$/m, 'category: NEWS'))).toEqual([
      `${article}:${lineOf(article, 'category:')}  frontmatter "category": Invalid option: expected one of "DR"|"DG"`,
    ]);
  });

  it('name a fact placeholder that names no fact', () => {
    const problems = problemsWith(article, (text) => `${text}\nRenew within {{cloudIdle.refundWindw}}.\n`);
    expect(problems).toEqual([
      `${article}:${readFileSync(path.join(root, article), 'utf8').split('\n').length + 1}  {{cloudIdle.refundWindw}} names no fact: write one of content/facts.json's (such as {{cloudIdle.monthlyPrice}}), or add the fact there`,
    ]);
  });

  it('name a variant the locale’s glossary avoids, with the term to write', () => {
    const file = 'content/articles/zh-CN/getting-started.md';
    const problems = problemsWith(file, (text) => `${text}\n请先登录帐号。\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${file}:\\d+  "帐号" is a variant the zh-CN glossary avoids: 账号$`));
  });

  it('name a link that leads nowhere, in any locale, with the slugs there are', () => {
    const file = 'content/articles/ru/getting-started.md';
    const problems = problemsWith(file, (text) => `${text}\n[Ссылка](/article/no-such-article) и [страница](/no-such-page).\n`);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^content\/articles\/ru\/getting-started\.md:\d+ {2}the link \/article\/no-such-article leads nowhere: no article has the slug "no-such-article"; the articles are anniversary-raffle, /,
    );
    expect(problems[1]).toMatch(/the link \/no-such-page leads nowhere: no page of the site has this path; link a page without its locale prefix/);
    // A link to a page that exists, with an anchor, is fine.
    expect(problemsWith(file, (text) => `${text}\n[FAQ](/faq#refunds), [соглашение](/agreement/auto).\n`)).toEqual([]);
  });

  it('name an image without alternative text', () => {
    const problems = problemsWith(article, (text) => `${text}\n![](/favicon.svg)\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/the image \/favicon\.svg has no alternative text: write what it shows between the brackets, !\[…\]\(\/favicon\.svg\)$/);
  });
});
