/**
 * Operators' roles and the audit log: `role grant|revoke|list` change roles
 * with a line in the audit log each (who, from where, before and after), an
 * unchanged role writes none, the log refuses any update, deletion or
 * truncation whoever asks (also on PostgreSQL: this file is in the scale-out
 * run), and `audit export` gives CSV a spreadsheet cannot be tricked by.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWords, UsageError, type ResultOf } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import type { roleAndAuditCommands } from '#contract/commands/operators.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { runCommand } from '../../../server/admin-command.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { consoleFactors, users } from '../../../server/db/schema.ts';
import { startApp, type TestApp } from './harness.ts';

describe('operators’ roles and the audit log', () => {
  let t: TestApp;
  let alice: number;
  let bob: number;

  beforeAll(async () => {
    t = await startApp();
    [{ id: alice }, { id: bob }] = await t.app.db
      .insert(users)
      .values([
        { phone: '+8613800000101', nickname: 'Alice' },
        { phone: '+8613800000102', nickname: 'Bob' },
      ])
      .returning({ id: users.id });
  });
  afterAll(() => t.close());

  /** The result of one of this module's commands. */
  type Result = ResultOf<(typeof roleAndAuditCommands)[keyof typeof roleAndAuditCommands]>;

  /** A command as the CLI runs it on a free database, as `root@shop`: its words parsed as the CLI parses them. */
  async function command(words: string[]): Promise<Result> {
    const { command: declared, args } = parseWords(operatorCommands, words);
    return (await runCommand(t.app, declared.name, args, { actor: shellActor('root@shop', null), locale: 'en', attachment: null }, null)) as Result;
  }

  /** A command as the CLI sends it to a running server, as `ops@shop` unless said otherwise. */
  async function throughServer(words: string[], actor = 'ops@shop'): Promise<Result> {
    const { command: declared, args } = parseWords(operatorCommands, words);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/run',
      remoteAddress: '127.0.0.1',
      headers: { 'x-admin-token': t.app.adminToken },
      payload: { command: declared.name, args, actor },
    });
    const body = response.json<{ code: number; data: Result }>();
    expect(body.code).toBe(SUCCESS);
    return body.data;
  }

  const auditLines = async () => {
    const result = await command(['audit', 'list', '--size', '200']);
    if (result.command !== 'audit list') throw new Error('not an audit list');
    return result.rows;
  };

  it('grants, changes and revokes a role, each change with its line in the audit log', async () => {
    expect(await command(['role', 'grant', '+8613800000101', 'support'])).toEqual({
      command: 'role grant',
      key: '+8613800000101',
      userId: alice,
      previous: null,
      role: 'support',
    });
    expect(await throughServer(['role', 'grant', String(alice), 'admin'])).toMatchObject({ previous: 'support', role: 'admin' });
    // The same role again changes nothing and writes nothing.
    expect(await command(['role', 'grant', String(alice), 'admin'])).toMatchObject({ previous: 'admin', role: 'admin' });
    expect(await command(['role', 'list'])).toMatchObject({ operators: [{ userId: alice, role: 'admin', nickname: 'Alice' }] });
    expect(await command(['role', 'revoke', String(alice)])).toMatchObject({ previous: 'admin', role: null });
    expect(await command(['role', 'list'])).toEqual({ command: 'role list', operators: [] });

    const lines = (await auditLines()).filter((line) => line.target === `user ${alice}`);
    expect(lines.map(({ actor, address, action, before, after }) => ({ actor, address, action, before, after }))).toEqual([
      { actor: "root@shop (operators' command)", address: null, action: 'role revoke', before: { role: 'admin' }, after: { role: null } },
      { actor: "ops@shop (operators' command)", address: '127.0.0.1', action: 'role grant', before: { role: 'support' }, after: { role: 'admin' } },
      { actor: "root@shop (operators' command)", address: null, action: 'role grant', before: { role: null }, after: { role: 'support' } },
    ]);
    expect(await command(['audit', 'list', '--action', 'role revoke'])).toMatchObject({ rows: [{ action: 'role revoke', target: `user ${alice}` }] });
  });

  it('names a user there is none of, and refuses a role there is none of', async () => {
    expect(await command(['role', 'grant', '+8613800009999', 'operator'])).toMatchObject({ userId: null, role: null });
    expect(() => parseWords(operatorCommands, ['role', 'grant', String(bob), 'owner'])).toThrow(
      new UsageError('role grant takes a user and one of support, operator, admin'),
    );
    expect(() => parseWords(operatorCommands, ['audit', 'list', '--size', '0'])).toThrow(UsageError);
    expect(() => parseWords(operatorCommands, ['audit', 'list', '--limit', '10'])).toThrow(UsageError);
  });

  it('shows whose console sign-in wrong codes locked, until when, and unlocks it with a line in the audit log', async () => {
    await command(['role', 'grant', String(bob), 'support']);
    const until = new Date(Date.now() + 600_000);
    await t.app.db.insert(consoleFactors).values({ userId: bob, secret: 'JBSWY3DPEHPK3PXP', confirmedAt: new Date(), failedTries: 5, lockedUntil: until });
    expect(await command(['role', 'list'])).toMatchObject({ operators: [{ userId: bob, lockedUntil: until.toISOString() }] });
    expect(t.app.adminCommands.get('role list')!.format(await command(['role', 'list']))).toMatch(/LOCKED UNTIL/);

    expect(await throughServer(['role', 'unlock', String(bob)])).toEqual({ command: 'role unlock', key: String(bob), userId: bob, unlocked: true });
    expect(await command(['role', 'list'])).toMatchObject({ operators: [{ userId: bob, lockedUntil: null }] });
    const [factor] = await t.app.db.select().from(consoleFactors).where(eq(consoleFactors.userId, bob));
    expect(factor).toMatchObject({ failedTries: 0, lockedUntil: null });
    // Nothing locked: nothing to do, nothing written.
    expect(await command(['role', 'unlock', String(bob)])).toMatchObject({ unlocked: false });
    expect(await command(['role', 'unlock', '+8613800009999'])).toMatchObject({ userId: null, unlocked: false });
    const lines = (await auditLines()).filter((line) => line.action === 'role unlock');
    expect(lines.map(({ actor, address, target, before, after }) => ({ actor, address, target, before, after }))).toEqual([
      {
        actor: "ops@shop (operators' command)",
        address: '127.0.0.1',
        target: `user ${bob}`,
        before: { failedTries: 5, lockedUntil: until.toISOString() },
        after: { failedTries: 0, lockedUntil: null },
      },
    ]);
    await t.app.db.delete(consoleFactors).where(eq(consoleFactors.userId, bob));
  });

  it('keeps the audit log append-only: no update, deletion or truncation, whoever asks', async () => {
    await command(['role', 'grant', String(bob), 'operator']);
    const before = await auditLines();
    for (const statement of [sql`update audit_log set actor = 'someone else'`, sql`delete from audit_log`, sql`truncate audit_log`]) {
      // Drizzle names the query; the database's own refusal is its cause.
      await expect(t.app.db.execute(statement)).rejects.toMatchObject({
        cause: { message: expect.stringMatching(/^the audit log is append-only: (UPDATE|DELETE|TRUNCATE) is refused$/) },
      });
    }
    expect(await auditLines()).toEqual(before);
  });

  it('exports the log as CSV, oldest first, with text a spreadsheet would run as a formula defused', async () => {
    await command(['role', 'grant', String(bob), 'support']);
    await throughServer(['role', 'grant', String(bob), 'admin'], '=HYPERLINK("http://evil.test")');
    const result = await command(['audit', 'export']);
    if (result.command !== 'audit export') throw new Error('not an export');
    const [header, ...rows] = result.csv.trimEnd().split('\n');
    expect(header).toBe('id,at,actor,actorUserId,address,action,target,before,after');
    const ids = rows.map((row) => Number(row.split(',')[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(rows.at(-2)).toMatch(
      new RegExp(`^\\d+,[^,]+,root@shop \\(operators' command\\),,,role grant,user ${bob},"{""role"":""operator""}","{""role"":""support""}"$`),
    );
    expect(rows.at(-1)).toContain(`,"'=HYPERLINK(""http://evil.test"") (operators' command)",,127.0.0.1,role grant,user ${bob},`);
  });
});
