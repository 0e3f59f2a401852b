/**
 * Content missing in a locale falls back to zh-CN content, keeps the locale's
 * chrome and says so. Builds the real site from a copy of the
 * content with two English files taken away.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const work = mkdtempSync(path.join(tmpdir(), 'fallback-'));
const outDir = path.join(work, 'dist');
const page = (p: string) => readFileSync(path.join(outDir, p, 'index.html'), 'utf8');

beforeAll(() => {
  cpSync('content', path.join(work, 'content'), { recursive: true });
  rmSync(path.join(work, 'content/articles/en/getting-started.md'));
  rmSync(path.join(work, 'content/pages/en/privacy.md'));
  execFileSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build', '--silent'], {
    env: { ...process.env, CONTENT_DIR: path.join(work, 'content'), ASTRO_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: 'pipe',
  });
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('content fallback', () => {
  it('shows the zh-CN article in English chrome with a visible notice', () => {
    const html = page('en/article/getting-started');
    const zhTitle = readFileSync('content/articles/zh-CN/getting-started.md', 'utf8').match(/^title:\s*"?(.+?)"?$/m)![1];
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain('data-fallback-notice');
    expect(html).toContain('has not been translated into English yet');
    expect(html).toContain(zhTitle);
    expect(html).toContain('lang="zh-CN"');
    expect(html).toContain('All articles');
  });

  it('falls back for pages too, and leaves translated pages alone', () => {
    expect(page('en/privacy')).toContain('data-fallback-notice');
    expect(page('en/agreement')).not.toContain('data-fallback-notice');
    expect(page('ja/article/getting-started')).not.toContain('data-fallback-notice');
  });

  it('still lists the article in the English list and feed', () => {
    expect(page('en/article')).toContain('/en/article/getting-started');
    expect(readFileSync(path.join(outDir, 'en/article/rss.xml'), 'utf8')).toContain('/en/article/getting-started');
  });
});
