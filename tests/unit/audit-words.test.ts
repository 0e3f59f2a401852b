/**
 * The audit log in the operator's language: every action the server can write
 * (contract/audit.ts, the list its `recordAudit` takes) and every kind of
 * record has words in each locale, and a line's action and record read as
 * those words, the record's id as it is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditActions, auditRecordKinds, auditWholeRecords } from '#contract/audit.ts';
import { localeCodes } from '#contract/locales.ts';
import { actionWords, kindWords, recordWords, searchableActions, searchableKinds, searchedTarget } from '@/features/console/audit-store.ts';
import { useTranslations } from '@/i18n/t.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** The server's files, to find every action a line is written with. */
function serverFiles(folder = path.join(root, 'server')): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return serverFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the audit log’s words', () => {
  it('has words for every action and kind of record in every language, no two actions alike', () => {
    for (const locale of localeCodes) {
      const t = useTranslations(locale);
      const actions = searchableActions.map((action) => t(actionWords(action)!));
      for (const [i, words] of actions.entries()) expect(words.trim(), `${locale} ${searchableActions[i]}`).not.toBe('');
      expect(new Set(actions).size, locale).toBe(actions.length);
      for (const kind of searchableKinds) expect(t(kindWords(kind)!).trim(), `${locale} ${kind}`).not.toBe('');
    }
  });

  it('lists every action the server writes: a line written with another fails here before it reaches a console', () => {
    const written = new Set<string>();
    for (const file of serverFiles()) {
      const source = readFileSync(file, 'utf8');
      if (!source.includes('recordAudit(')) continue;
      // `action: 'role grant'` and `action: hidden ? 'donation hide' : 'donation show'`.
      for (const [, expression] of source.matchAll(/\baction: ([^,\n]+)/g)) for (const [, name] of expression.matchAll(/'([^']+)'/g)) written.add(name);
    }
    expect(written.size).toBeGreaterThan(20);
    for (const action of written) expect(Object.keys(auditActions), action).toContain(action);
  });

  it('reads an action and a record as words of the operator’s language, the id as it is', () => {
    const ru = useTranslations('ru');
    const ja = useTranslations('ja');
    expect(ru(actionWords('role grant')!)).toBe('Роль выдана');
    expect(ja(actionWords('order refund')!)).toBe('注文を返金');
    // A line of an action no longer written (an older log's) is shown as it is.
    expect(actionWords('role shuffle')).toBeNull();

    const record = (t: typeof ru, target: string) => {
      const read = recordWords(target);
      if (!read) return target;
      return read.id === null ? t(read.kind) : `${t(read.kind)} ${read.id}`;
    };
    expect(record(ru, 'user 5')).toBe('Пользователь 5');
    expect(record(ru, 'order 20261128000000000001')).toBe('Заказ 20261128000000000001');
    expect(record(ja, 'batch spring-sale')).toBe('CDキーのバッチ spring-sale');
    expect(record(ru, 'key ABCDE-*****-*****-STUVW')).toBe('Cdkey ABCDE-*****-*****-STUVW');
    expect(record(ru, 'file /var/backups/beacon 1.tar')).toBe('Файл /var/backups/beacon 1.tar');
    expect(record(ru, 'server keys')).toBe('Ключи сервера');
    expect(record(ja, 'payments')).toBe('支払い');
    expect(record(ru, '/var/backups/old.tar')).toBe('/var/backups/old.tar');
    expect(Object.keys(auditRecordKinds).length + Object.keys(auditWholeRecords).length).toBe(searchableKinds.length);
  });

  it('searches for a record as the log names it', () => {
    expect(searchedTarget({ kind: 'raffle', id: ' 3 ' })).toBe('raffle 3');
    expect(searchedTarget({ kind: 'server keys', id: '' })).toBe('server keys');
    expect(searchedTarget({ kind: 'user', id: '' })).toBeUndefined();
    expect(searchedTarget({ kind: '', id: '12' })).toBeUndefined();
  });
});
