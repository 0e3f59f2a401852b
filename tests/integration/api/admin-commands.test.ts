/**
 * The operators' vocabulary: every command is declared once in contract/commands/
 * (its usage, arguments and result), each module's commands plugin adds a handler
 * per declaration, and the server's admin endpoint and the CLI take them from the
 * same plugins and run them through the same path.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { command, NoArgs, noWords, parseWords, usage, UsageError, type ResultOf } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import { identityCommands } from '#contract/commands/identity.ts';
import { systemCommands } from '#contract/commands/system.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { ErrorCode } from '#contract/errors.ts';
import { handle } from '../../../server/admin-command.ts';
import { buildApp } from '../../../server/app.ts';
import { runAdminCommand } from '../../../server/cli/run.ts';
import { commandApp } from '../../../server/command-app.ts';
import { loadConfig } from '../../../server/config.ts';
import { openDatabase } from '../../../server/db/open.ts';
import { users } from '../../../server/db/schema.ts';
import { runAdmin, startApp, type TestApp } from './harness.ts';

describe('operators’ commands', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beacon-commands-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: `file://${path.join(dataDir, 'db')}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'false',
  });
  const closing: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it('each is declared with a usage line starting with its words, and every declared one has a handler that formats its result', async () => {
    const app = await commandApp();
    closing.push(() => app.close());
    // Every module's, the CLI's own `restore` too.
    expect(operatorCommands.map((command) => command.name)).toEqual(
      expect.arrayContaining(['users list', 'idle set', 'raffle draw', 'keys rotate', 'backup', 'restore']),
    );
    for (const command of operatorCommands) {
      expect(command.usage.startsWith(`${command.name} `) || command.usage === command.name).toBe(true);
      expect(app.adminCommands.get(command.name)?.command).toBe(command);
    }
    expect(usage(operatorCommands)).toContain(`\n  ${identityCommands.list.usage}\n`);
  });

  it('refuses a handler of a command that is not declared, and a second handler of one that is', async () => {
    const app = await commandApp();
    closing.push(() => app.close());
    const undeclared = command({ name: 'probe users', usage: 'probe users', args: NoArgs, words: noWords('probe users'), result: {} });
    expect(() => app.adminCommands.add([handle(undeclared, { run: async () => ({ command: 'probe users' }), format: () => '' })])).toThrow(/not declared/);
    expect(() =>
      app.adminCommands.add([
        handle(identityCommands.list, { run: async () => ({ command: 'users list', rows: [], total: 0, page: 1, size: 25 }), format: () => '' }),
      ]),
    ).toThrow(/Two handlers/);
  });

  it('parse typed words into the declared arguments, refusing what the declaration does not take', () => {
    expect(parseWords(operatorCommands, ['users', 'list', '--sort', 'nickname', '--asc', '--page', '2', '--size', '7']).args).toEqual({
      sort: 'nickname',
      dir: 'asc',
      page: 2,
      size: 7,
    });
    expect(parseWords(operatorCommands, ['users', 'list']).args).toEqual({ sort: 'created', dir: 'desc', page: 1, size: 25 });
    expect(parseWords(operatorCommands, ['users', 'list', '--search', 'a b', '--since', '2026-01-01']).args).toMatchObject({
      search: 'a b',
      since: '2026-01-01',
    });
    expect(() => parseWords(operatorCommands, ['users', 'list', '--size', '0'])).toThrow(UsageError);
    expect(() => parseWords(operatorCommands, ['users', 'list', '--size', '201'])).toThrow(/users list: size: at most 200 rows a page/);
    expect(() => parseWords(operatorCommands, ['users', 'list', '--sort', 'password'])).toThrow(
      /users list: sort: sort by one of created, nickname, email, phone/,
    );
    expect(() => parseWords(operatorCommands, ['users', 'list', '--page', 'two'])).toThrow(UsageError);
    expect(() => parseWords(operatorCommands, ['users', 'list', '--search'])).toThrow(UsageError);
    expect(() => parseWords(operatorCommands, ['users', 'list', 'extra'])).toThrow(UsageError);
    expect(() => parseWords(operatorCommands, ['users', 'frobnicate'])).toThrow(/unknown command/);
  });

  it('run in the CLI on a free database, and through a running server’s endpoint, alike', { timeout: 60_000 }, async () => {
    const database = await openDatabase(config.DATABASE_URL);
    await database.db.insert(users).values([{ nickname: 'One' }, { nickname: 'Two' }]);
    await database.close();

    // No server runs on this folder: the CLI opens it with the server's plugins and runs the handler there.
    const cli = await commandApp();
    const direct = await runAdminCommand(config, cli, { command: 'users list', args: { size: 10 }, attachment: null });
    expect(direct).toMatchObject({ command: 'users list', rows: [{ nickname: 'Two' }, { nickname: 'One' }], total: 2 });
    expect(cli.adminCommands.get('users list')!.format(direct)).toMatch(/^ID +PHONE +EMAIL +NICKNAME/);

    const server = await buildApp(config);
    closing.push(() => server.close());
    const send = (payload: object) =>
      server.inject({ method: 'POST', url: '/api/admin/run', remoteAddress: '127.0.0.1', headers: { 'x-admin-token': server.adminToken }, payload });
    expect((await send({ command: 'users list', args: { size: 10 } })).json()).toEqual({ code: SUCCESS, message: expect.any(String), data: direct });
    // Arguments outside the declaration, a name nobody declared, or the CLI's own `restore`: refused, nothing run.
    for (const payload of [
      { command: 'users list', args: { size: 'all' } },
      { command: 'users list', args: { size: 5, extra: true } },
      { command: 'users frobnicate', args: {} },
      { command: 'restore', args: { file: '/tmp/x', into: '/tmp/y' } },
    ]) {
      expect((await send(payload)).json()).toMatchObject({ code: ErrorCode.BadRequest });
    }
  });

  it('`messages test` sends through the configured provider and shows its answer, or why it was not sent', async () => {
    const run = async (app: TestApp, words: string[]) => (await runAdmin<ResultOf<typeof systemCommands.testMessage>>(app, ...words)).data;
    const outbox = await startApp();
    closing.push(outbox.close);
    const sent = await run(outbox, ['messages', 'test', 'sms', '+8613800138000']);
    expect(sent).toMatchObject({ channel: 'sms', to: '+8613800138000', provider: 'dev', sent: true, refusal: null });
    expect(outbox.app.sms.outbox!.at(-1)).toMatchObject({ to: '+8613800138000', kind: 'loginCode' });
    const command = outbox.app.adminCommands.get('messages test')!;
    expect(command.format(sent)).toMatch(/^Sent by dev to \+8613800138000 \(its id: dev-1\)/);
    expect(() => parseWords(operatorCommands, ['messages', 'test', 'email', 'not-an-address'])).toThrow(/messages test: to: not an e-mail address/);
    expect(() => parseWords(operatorCommands, ['messages', 'test', 'sms', '12'])).toThrow(/messages test: to: not a phone number/);
    expect(() => parseWords(operatorCommands, ['messages', 'test', 'fax', '123'])).toThrow(UsageError);

    // A gateway nobody listens at: the answer says so, and the CLI exits 1 (found: false).
    const unanswered = await startApp({ EMAIL_PROVIDER: 'http', EMAIL_GATEWAY_URL: 'http://127.0.0.1:9/mail', EMAIL_GATEWAY_SECRET: 'a-secret-of-sixteen+' });
    closing.push(unanswered.close);
    const refused = await run(unanswered, ['messages', 'test', 'email', 'ops@example.com']);
    expect(refused).toMatchObject({ provider: 'http', sent: false, refusal: 'unreachable', error: 'Gateway http://127.0.0.1:9/mail could not be reached' });
    expect(command.found!(refused)).toBe(false);
    expect(command.format(refused)).toBe('Not sent: http unreachable: Gateway http://127.0.0.1:9/mail could not be reached');
  });
});
