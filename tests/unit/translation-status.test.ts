/**
 * The translation status (src/lib/editorial/status.ts) of a small project
 * in a git repository of its own, with commits at chosen times: a page or a
 * string is missing until translated, outdated once its source changes after
 * it, done again once translated anew; a scaffolded translation is missing;
 * an edit not yet committed counts at once; content/translations.json's
 * `translatedThrough` forgives source changes made before it; a string's
 * history follows it by part and key, across the files it was kept in before
 * each locale had one dictionary; and only a missing interface string or a
 * placeholder naming no fact is refused.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { translationStatus } from '../../src/lib/editorial/status.ts';

let root: string;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

/** Commits everything as of `seconds` since the epoch. */
function commit(seconds: number): void {
  const date = `@${seconds} +0000`;
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, '-c', 'user.name=Editor', '-c', 'user.email=editor@example.test', ...args], { env, stdio: 'ignore' });
  git('add', '-A');
  git('commit', '-q', '-m', `as of ${seconds}`);
}

const article = (title: string, extra = '') => `---\ntitle: ${title}\n${extra}---\n\n## ${title}\n`;
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
/** A locale's dictionary with these strings in its `site` part (and its other parts, when given). */
const strings = (site: Record<string, string>, parts: Record<string, Record<string, string>> = {}) => json({ site, ...parts });

const day = 86_400;
const t1 = 1_700_000_000;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'beacon-translations-'));
  execFileSync('git', ['init', '-q', root]);
  write('content/articles/zh-CN/guide.md', article('指南'));
  write('content/articles/en/guide.md', article('Guide'));
  write('content/i18n/zh-CN.json', strings({ 'home.title': '首页', 'home.more': '更多' }));
  write('content/i18n/en.json', strings({ 'home.title': 'Home', 'home.more': 'More' }));
  commit(t1);
});

const stateOf = (locale: 'en' | 'ja', slug = 'guide') => translationStatus(root).entries.find((entry) => entry.slug === slug)!.locales[locale].state;

describe('the translation status', () => {
  it('is done for a translation, missing where there is none, and names each file', () => {
    const status = translationStatus(root);
    expect(status.history).toBe(true);
    expect(status.entries).toEqual([expect.objectContaining({ collection: 'articles', slug: 'guide', sourcePath: 'content/articles/zh-CN/guide.md' })]);
    expect(status.entries[0].locales.en).toEqual({ state: 'done', path: 'content/articles/en/guide.md' });
    expect(status.entries[0].locales.ja).toEqual({ state: 'missing', path: 'content/articles/ja/guide.md' });
    expect(status.summary.en).toEqual({ pages: { done: 1, outdated: 0, missing: 0 }, strings: { done: 2, outdated: 0, missing: 0 } });
  });

  it('makes a translation outdated when its source changes after it, and done when it is translated again', () => {
    write('content/articles/zh-CN/guide.md', article('新指南'));
    commit(t1 + day);
    expect(stateOf('en')).toBe('outdated');
    write('content/articles/en/guide.md', article('New guide'));
    commit(t1 + 2 * day);
    expect(stateOf('en')).toBe('done');
  });

  it('counts an edit of the source that is not committed yet', () => {
    write('content/articles/zh-CN/guide.md', article('新指南'));
    expect(stateOf('en')).toBe('outdated');
  });

  it('keeps a translation done when its source changed before content/translations.json’s translatedThrough', () => {
    write('content/articles/zh-CN/guide.md', article('新指南'));
    commit(t1 + day);
    write('content/translations.json', `{ "translatedThrough": "${new Date((t1 + day + 60) * 1000).toISOString()}" }\n`);
    expect(stateOf('en')).toBe('done');
  });

  it('counts a scaffolded translation, still marked untranslated, as missing', () => {
    write('content/articles/ja/guide.md', article('指南', 'untranslated: true\n'));
    commit(t1 + day);
    expect(stateOf('ja')).toBe('missing');
    write('content/articles/ja/guide.md', article('ガイド'));
    commit(t1 + 2 * day);
    expect(stateOf('ja')).toBe('done');
  });

  it('follows each interface string by itself: a changed value makes that key outdated, a comma does not', () => {
    // "home.more" gains a comma because a key follows it; only "home.title" changes value.
    write('content/i18n/zh-CN.json', strings({ 'home.title': '主页', 'home.more': '更多', 'home.new': '新' }));
    write('content/i18n/en.json', strings({ 'home.title': 'Home', 'home.more': 'More', 'home.new': 'New' }));
    commit(t1 + day);
    write('content/i18n/zh-CN.json', strings({ 'home.title': '主页面', 'home.more': '更多', 'home.new': '新' }));
    commit(t1 + 2 * day);
    const en = translationStatus(root).dictionaries.find((item) => item.part === 'site' && item.locale === 'en')!;
    expect(en).toEqual({ part: 'site', locale: 'en', total: 3, missing: [], outdated: ['home.title'] });
  });

  it('follows a string by its part and key: the same key in another part is another string', () => {
    write('content/i18n/zh-CN.json', strings({ 'home.title': '首页', 'home.more': '更多' }, { console: { 'home.title': '控制台' } }));
    write('content/i18n/en.json', strings({ 'home.title': 'Home', 'home.more': 'More' }, { console: { 'home.title': 'Console' } }));
    commit(t1 + day);
    write('content/i18n/zh-CN.json', strings({ 'home.title': '主页', 'home.more': '更多' }, { console: { 'home.title': '控制台' } }));
    commit(t1 + 2 * day);
    const en = (part: string) => translationStatus(root).dictionaries.find((item) => item.part === part && item.locale === 'en')!.outdated;
    expect(en('site')).toEqual(['home.title']);
    expect(en('console')).toEqual([]);
  });

  it('keeps each string’s history when the strings move from their former files into the one dictionary', () => {
    // Before issue 48: the site's strings flat (the console's under "console."), the server's and the shared messages in files of their own.
    const before = (zh: Record<string, string>, en: Record<string, string>, server: [string, string], shared: [string, string]) => {
      write('content/i18n/zh-CN.json', json(zh));
      write('content/i18n/en.json', json(en));
      write('server/i18n/zh-CN.json', json({ ok: server[0] }));
      write('server/i18n/en.json', json({ ok: server[1] }));
      write('contract/messages/zh-CN.json', json({ tooFast: shared[0] }));
      write('contract/messages/en.json', json({ tooFast: shared[1] }));
    };
    before(
      { 'home.title': '首页', 'console.title': '控制台' },
      { 'home.title': 'Home', 'console.title': 'Console' },
      ['成功', 'Success'],
      ['太快了', 'Too fast'],
    );
    commit(t1 + day);
    // The sources of a site string and a server message change; their English falls behind.
    before(
      { 'home.title': '主页', 'console.title': '控制台' },
      { 'home.title': 'Home', 'console.title': 'Console' },
      ['完成', 'Success'],
      ['太快了', 'Too fast'],
    );
    commit(t1 + 2 * day);
    // One commit moves every string, unchanged, into its part of the one dictionary.
    rmSync(path.join(root, 'server'), { recursive: true });
    rmSync(path.join(root, 'contract'), { recursive: true });
    const parts = (zh: boolean) => ({
      console: { title: zh ? '控制台' : 'Console' },
      server: { ok: zh ? '完成' : 'Success' },
      messages: { tooFast: zh ? '太快了' : 'Too fast' },
    });
    write('content/i18n/zh-CN.json', strings({ 'home.title': '主页' }, parts(true)));
    write('content/i18n/en.json', strings({ 'home.title': 'Home' }, parts(false)));
    commit(t1 + 3 * day);
    const outdated = () =>
      Object.fromEntries(
        translationStatus(root)
          .dictionaries.filter((item) => item.locale === 'en')
          .map((item) => [item.part, item.outdated]),
      );
    // Still behind as before the move, and nothing else is: the move itself changed no string.
    expect(outdated()).toEqual({ site: ['home.title'], console: [], server: ['ok'], messages: [] });
    // A source changed after the move, in the one dictionary, is followed there.
    write('content/i18n/zh-CN.json', strings({ 'home.title': '主页' }, { ...parts(true), messages: { tooFast: '操作太快了' } }));
    commit(t1 + 4 * day);
    expect(outdated()).toEqual({ site: ['home.title'], console: [], server: ['ok'], messages: ['tooFast'] });
  });

  it('refuses an interface string a locale lacks and a placeholder naming no fact, never a missing or outdated page', () => {
    write('content/articles/zh-CN/guide.md', article('新指南'));
    expect(translationStatus(root).refusals).toEqual([
      // Every locale but the source lacks both keys here except English.
      ...['zh-TW', 'es', 'it', 'ja', 'ko', 'ru'].flatMap((locale) => [
        `content/i18n/${locale}.json lacks site "home.title" (content/i18n/zh-CN.json has it)`,
        `content/i18n/${locale}.json lacks site "home.more" (content/i18n/zh-CN.json has it)`,
      ]),
    ]);
    write('content/articles/en/guide.md', article('Guide', 'description: Renew within {{cloudIdle.refundWindw}}\n'));
    expect(translationStatus(root).refusals).toContain('content/articles/en/guide.md: {{cloudIdle.refundWindw}} names no fact in content/facts.json');
  });

  it('npm run translations exits with status 1 only on a refusal, naming it', () => {
    const script = path.resolve('scripts/translations.ts');
    const run = () => spawnSync(process.execPath, [script, '--summary'], { cwd: root, encoding: 'utf8' });
    const refused = run();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('✗ content/i18n/ja.json lacks site "home.title" (content/i18n/zh-CN.json has it)');
    expect(refused.stdout).toContain('  en     pages 1 done, 0 outdated, 0 missing; interface strings 2 done, 0 outdated, 0 missing');
    // Missing and outdated pages are no refusal.
    write('content/i18n/zh-CN.json', strings({}));
    write('content/articles/zh-CN/guide.md', article('新指南'));
    const passed = run();
    expect(passed.stdout).toContain('  en     pages 0 done, 1 outdated, 0 missing');
    expect(passed.status).toBe(0);
  });

  it('without git history knows only done and missing', () => {
    const plain = mkdtempSync(path.join(tmpdir(), 'beacon-translations-plain-'));
    mkdirSync(path.join(plain, 'content/articles/zh-CN'), { recursive: true });
    mkdirSync(path.join(plain, 'content/articles/en'), { recursive: true });
    writeFileSync(path.join(plain, 'content/articles/zh-CN/guide.md'), article('新指南'));
    writeFileSync(path.join(plain, 'content/articles/en/guide.md'), article('Guide'));
    const status = translationStatus(plain);
    expect(status.history).toBe(false);
    expect(status.entries[0].locales.en.state).toBe('done');
    expect(status.entries[0].locales.ja.state).toBe('missing');
  });
});
