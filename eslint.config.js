// @ts-check
/**
 * Lint, and the import boundaries (docs/architecture.md, "The layers") checked rather than
 * remembered: src/ and server/ meet only in contract/, which depends on nothing
 * of ours; the shared layers of the site never import a feature, and features
 * never import each other; the server's infrastructure never imports a module,
 * and modules never import each other nor the entry points above them
 * (server/app.ts puts them together; server/main.ts and server/cli/ start it).
 */
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import astro from 'eslint-plugin-astro';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

/** @param {string} parent */
const folders = (parent) =>
  readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * `parent`'s folders may import only themselves among their siblings.
 * @param {string} parent
 * @param {string} message
 */
const apart = (parent, message) => folders(parent).map((name) => ({ target: `./${parent}/${name}`, from: `./${parent}`, except: [`./${name}`], message }));

const zones = [
  { target: './contract', from: ['./src', './server', './tests', './bench'], message: 'contract/ depends on nothing of ours.' },
  { target: './src', from: './server', message: 'The site meets the server only in contract/.' },
  { target: './server', from: './src', message: 'The server meets the site only in contract/.' },
  {
    target: ['./src/lib', './src/components', './src/stores', './src/layouts', './src/i18n'],
    from: './src/features',
    message: 'Shared layers never import a feature: move what both need into lib/ or stores/.',
  },
  ...apart('src/features', 'Features never import each other; they meet in src/stores/.'),
  {
    target: ['./server/db', './server/http', './server/plugins', './server/realtime', './server/crypto', './server/services', './server/i18n'],
    from: './server/modules',
    message: 'Infrastructure never imports a module: a module provides what others need as a decorator.',
  },
  ...apart('server/modules', 'Server modules never import each other: app.ts puts them together.'),
  {
    target: [
      './server/modules',
      './server/db',
      './server/http',
      './server/plugins',
      './server/realtime',
      './server/crypto',
      './server/services',
      './server/i18n',
      './server/admin-command.ts',
      './server/admin-text.ts',
    ],
    from: ['./server/cli', './server/app.ts', './server/command-app.ts', './server/main.ts'],
    message: "Only the entry points import app.ts and cli/: an operators' command is written with server/admin-command.ts.",
  },
];

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'data/', '.astro/', 'bench/results/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': 'error',
      // Astro reads a page's `Props` type by its name.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^(_|Props$)' }],
    },
  },
  {
    // Plain JavaScript configuration runs in Node.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', console: 'readonly' } },
  },
);
