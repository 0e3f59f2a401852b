/** UI icons are SVG from src/lib/icons.ts: an emoji renders as an empty box where no emoji font is installed. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const emoji = /\p{Extended_Pictographic}/u;
/** Arrows and the like are text, not pictures. */
const textSymbols = /[←→↑↓↗©®™]/gu;

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(astro|tsx?|json|css)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

it('no page, island or UI string uses an emoji', () => {
  const found = [...files('src'), ...files('content/i18n')].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (emoji.test(line.replace(textSymbols, '')) ? [`${file}:${index + 1}: ${line.trim().slice(0, 80)}`] : [])),
  );
  expect(found).toEqual([]);
});
