/**
 * New content in one command (src/lib/editorial/scaffold.ts), on a copy
 * of content/: an article, a question and a release whose files the build's
 * schemas accept, whose copies for translators count as missing until
 * translated, and each refusal in the editor's words.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import * as schemas from '../../src/content-schemas.ts';
import { sourceFile, type Collection } from '../../src/lib/editorial/content-files.ts';
import { newArticle, newFaq, newRelease } from '../../src/lib/editorial/scaffold.ts';
import { translationStatus } from '../../src/lib/editorial/status.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'beacon-scaffold-'));
  cpSync('content', path.join(root, 'content'), { recursive: true });
});

/** The file as the build reads it: its collection's schema parses the frontmatter. */
function parsed(file: string) {
  const [, collection, locale, slug] = /^content\/(\w+)\/([\w-]+)\/(.+)\.md$/.exec(file)!;
  const source = sourceFile(collection as Collection, locale as 'en', slug, root);
  return { ...source, data: schemas[collection as Collection].parse(source.data) as Record<string, unknown> };
}

const article = { slug: 'new-plugin-store', category: 'DR', title: '插件商店上线', description: '现在可以在应用内浏览和安装插件。' };

describe('npm run new:article', () => {
  it('writes the source article with complete frontmatter, and copies for every locale marked untranslated', () => {
    const files = newArticle({ ...article, tags: '插件, 公告', locales: 'all' }, root);
    expect(files).toEqual(['zh-CN', 'zh-TW', 'en', 'es', 'it', 'ja', 'ko', 'ru'].map((locale) => `content/articles/${locale}/new-plugin-store.md`));
    const source = parsed(files[0]);
    expect(source.data).toEqual({
      title: '插件商店上线',
      description: '现在可以在应用内浏览和安装插件。',
      category: 'DR',
      date: new Date(new Date().toISOString().slice(0, 10)),
      author: 'Beacon Toolkit 团队',
      tags: ['插件', '公告'],
    });
    expect(source.body).toBe('\n## 插件商店上线\n\n现在可以在应用内浏览和安装插件。\n');
    expect(parsed(files[5]).data).toEqual({ ...source.data, untranslated: true });
    const status = translationStatus(root).entries.find((entry) => entry.slug === 'new-plugin-store')!;
    expect(Object.values(status.locales).map((locale) => locale.state)).toEqual(Array(7).fill('missing'));
  });

  it('writes only the source without --locales, and the locales listed with it', () => {
    expect(newArticle(article, root)).toEqual(['content/articles/zh-CN/new-plugin-store.md']);
    expect(newArticle({ ...article, slug: 'second', locales: 'en,JA' }, root)).toEqual([
      'content/articles/zh-CN/second.md',
      'content/articles/en/second.md',
      'content/articles/ja/second.md',
    ]);
  });

  it('refuses, saying what to write instead', () => {
    newArticle(article, root);
    expect(() => newArticle(article, root)).toThrow('content/articles/zh-CN/new-plugin-store.md already exists: choose another --slug, or edit that file');
    expect(() => newArticle({ ...article, slug: 'Plugin_Store' }, root)).toThrow(
      '--slug "Plugin_Store" may hold only lower-case letters, digits and single hyphens',
    );
    expect(() => newArticle({ ...article, slug: 'x', category: 'news' }, root)).toThrow('--category is DR (news) or DG (a guide), not "news"');
    expect(() => newArticle({ ...article, slug: 'x', title: '' }, root)).toThrow('--title is the article’s title (at most 90 characters), written in zh-CN');
    expect(() => newArticle({ ...article, slug: 'x', title: '长'.repeat(91) }, root)).toThrow('--title has 91 characters; an article’s title has at most 90');
    expect(() => newArticle({ ...article, slug: 'x', locales: 'fr' }, root)).toThrow('--locales names fr, which is not one of');
    expect(() => newArticle({ ...article, slug: 'x', tags: 'a,b,c,d,e' }, root)).toThrow('--tags lists 5 tags; an article has at most 4');
  });
});

describe('npm run new:faq', () => {
  it('numbers the question after the last one, and refuses a slug that is asked already', () => {
    const [file] = newFaq({ slug: 'gift-cards', group: 'payment', question: '可以用礼品卡付款吗？', answer: '目前不支持礼品卡。' }, root);
    expect(file).toBe('content/faq/zh-CN/17-gift-cards.md');
    expect(parsed(file).data).toEqual({ question: '可以用礼品卡付款吗？', order: 17, group: 'payment' });
    expect(() => newFaq({ slug: 'refunds', group: 'payment', question: '?', answer: '!' }, root)).toThrow('A question with the slug "refunds" exists already');
    expect(() => newFaq({ slug: 'x', group: 'billing', question: '?', answer: '!' }, root)).toThrow(
      '--group is one of general, account, payment, acceleration',
    );
  });
});

describe('npm run new:release', () => {
  it('puts the release first in the change log index with the item keys its texts translate', () => {
    const files = newRelease(
      {
        version: '3.0.1201.0',
        date: '2026-12-01',
        summary: '启动更快。',
        feature: ['faster-start=启动更快。'],
        fix: ['crash-on-exit=修复退出时的崩溃。'],
        locales: 'en',
      },
      root,
    );
    expect(files).toEqual(['content/changelog/index.json', 'content/changelog/zh-CN/v3-0-1201-0.md', 'content/changelog/en/v3-0-1201-0.md']);
    const [first] = JSON.parse(readFileSync(path.join(root, 'content/changelog/index.json'), 'utf8')) as unknown[];
    expect(first).toEqual({
      slug: 'v3-0-1201-0',
      version: '3.0.1201.0',
      date: '2026-12-01',
      sections: { features: ['faster-start'], fixes: ['crash-on-exit'] },
    });
    expect(parsed(files[1]).data).toEqual({ summary: '启动更快。', items: { 'faster-start': '启动更快。', 'crash-on-exit': '修复退出时的崩溃。' } });
    expect(parsed(files[2]).data.untranslated).toBe(true);
    expect(() => newRelease({ version: '3.0.1201.0', summary: 'x', fix: ['a=b'] }, root)).toThrow(
      'Version 3.0.1201.0 is in content/changelog/index.json already',
    );
    expect(() => newRelease({ version: '3.0.1202.0', summary: 'x' }, root)).toThrow('A release lists at least one item');
    expect(() => newRelease({ version: '3.1', summary: 'x', fix: ['a=b'] }, root)).toThrow(
      '--version is the app\'s four-part version, such as 3.0.1201.0, not "3.1"',
    );
  });
});
