/**
 * The SMS templates an operator submits to Aliyun or Tencent Cloud for
 * approval are the product's own texts (the `server` part of content/i18n), facts filled in: the
 * list in docs/operators.md is checked against them here, so a text changed in
 * a catalog cannot leave the documented template behind unnoticed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import { messageKinds, smsKinds } from '../../server/messages/kinds.ts';
import { smsTemplate } from '../../server/messages/render.ts';
import { dictionary } from '../../src/lib/editorial/content-files.ts';

const operatorsDoc = readFileSync(path.join(import.meta.dirname, '../../docs/operators.md'), 'utf8');
const catalog = (locale: LocaleCode) => dictionary(locale).server;

/** The templates as docs/operators.md lists them: per kind, its parameters and each provider's text, domestic (zh-CN) and international (en). */
function templateList(): string {
  return smsKinds
    .map((kind) => {
      const params = messageKinds[kind].params;
      const lines = [`- \`${kind}\` (${params.map((name, index) => `\`${name}\` = {${index + 1}}`).join(', ')})`];
      for (const [label, locale] of [
        ['mainland China, zh-CN', 'zh-CN'],
        ['international, en', 'en'],
      ] as const) {
        lines.push(`  - ${label}: \`${smsTemplate(kind, locale, (name) => `\${${name}}`)}\``);
      }
      return lines.join('\n');
    })
    .join('\n');
}

describe('the SMS templates in docs/operators.md', () => {
  it('are the texts the product sends, every SMS kind with its parameters', () => {
    expect(operatorsDoc).toContain(templateList());
  });

  it('have exactly their kind’s parameters as placeholders, in every language, by SMS and by e-mail', () => {
    for (const locale of localeCodes) {
      for (const [kind, { params, sms, email }] of Object.entries(messageKinds)) {
        for (const key of [sms, email.text].filter((each) => each !== null)) {
          // A fact's placeholder has a dot (`{{verification.codeValidity}}`) and is filled in before any provider sees the text.
          const written = new Set([...catalog(locale)[key].matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]));
          expect([...written].sort(), `${locale} ${kind} (${key})`).toEqual([...params].sort());
        }
      }
    }
  });

  it('write each parameter where the text has it, in both providers’ forms', () => {
    expect(smsTemplate('loginCode', 'en', (name) => `\${${name}}`)).toMatch(/\$\{code\}/);
    expect(smsTemplate('renewalReminder', 'zh-CN', (_, position) => `{${position}}`)).toMatch(/\{2\}.*\{1\}|\{1\}.*\{2\}/);
    expect(() => smsTemplate('emailLink', 'en', (name) => name)).toThrow(/not sent by SMS/);
  });
});
