/**
 * The operators' vocabulary: each module's commands plugin adds its commands,
 * each with its usage and its text, and the server's admin endpoint and the CLI
 * take them from the same plugins — a command a module adds needs no central list.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { SUCCESS } from '#contract/envelope.ts';
import { commandsPlugin, usage, UsageError, type AdminCommand, type ResultOf } from '../../../server/admin-command.ts';
import { buildApp } from '../../../server/app.ts';
import { runAdminCommand } from '../../../server/cli/run.ts';
import { commandApp } from '../../../server/command-app.ts';
import { loadConfig } from '../../../server/config.ts';
import { openDatabase } from '../../../server/db/open.ts';
import { users } from '../../../server/db/schema.ts';
import { startApp, type TestApp } from './harness.ts';

/** A test module's command: it counts users, and answers in a shape the contract knows. */
const probe: AdminCommand<ResultOf<'cdkey revoke'>> = {
  name: 'probe users',
  usage: 'probe users                     how many users there are (a test module)',
  parse(rest) {
    if (rest.length > 0) throw new UsageError('probe users takes nothing more');
    return async ({ db }) => {
      const [{ total }] = await db.select({ total: count() }).from(users);
      return { command: 'cdkey revoke', revoked: total };
    };
  },
  format: (result) => `The probe counted ${result.revoked} user(s).`,
};
const probeModule = commandsPlugin('probe', [probe]);

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

  it('each has a usage line starting with its words, and formats its own result', async () => {
    const app = await commandApp();
    closing.push(() => app.close());
    const commands = app.adminCommands.all;
    // Every module's, the CLI's own `restore` too.
    expect(commands.map((command) => command.name)).toEqual(
      expect.arrayContaining(['users list', 'idle set', 'raffle draw', 'keys rotate', 'backup', 'restore']),
    );
    for (const command of commands) {
      expect(command.usage.startsWith(`${command.name} `) || command.usage === command.name).toBe(true);
      expect(typeof command.format).toBe('function');
    }
  });

  it('are the same in a running server as in the CLI', async () => {
    const t = await startApp();
    closing.push(t.close);
    const cli = await commandApp();
    closing.push(() => cli.close());
    expect(t.app.adminCommands.all.map((command) => command.name)).toEqual(cli.adminCommands.all.map((command) => command.name));
  });

  it('a command a module adds reaches the CLI, which runs it on a free database, and the server’s endpoint', { timeout: 60_000 }, async () => {
    const database = await openDatabase(config.DATABASE_URL);
    await database.db.insert(users).values([{ nickname: 'One' }, { nickname: 'Two' }]);
    await database.close();

    const cli = await commandApp();
    await cli.register(probeModule);
    expect(usage(cli.adminCommands.all)).toContain(`\n  ${probe.usage}\n`);
    const found = cli.adminCommands.find(['probe', 'users'])!;
    expect(found.command).toBe(probe);
    expect(() => found.command.parse(['extra'])).toThrow(UsageError);
    // No server runs on this folder: the CLI opens it with the server's plugins and the probe's context.
    const direct = await runAdminCommand(config, cli, probe.parse(found.rest), { words: ['probe', 'users'], attachment: null });
    expect(direct).toEqual({ command: 'cdkey revoke', revoked: 2 });
    expect(found.command.format(direct)).toBe('The probe counted 2 user(s).');

    const server = await buildApp(config);
    closing.push(() => server.close());
    await server.register(probeModule);
    const response = await server.inject({
      method: 'POST',
      url: '/api/admin/run',
      remoteAddress: '127.0.0.1',
      headers: { 'x-admin-token': server.adminToken },
      payload: { command: ['probe', 'users'] },
    });
    expect(response.json()).toMatchObject({ code: SUCCESS, data: { command: 'cdkey revoke', revoked: 2 } });
  });

  it('`messages test` sends through the configured provider and shows its answer, or why it was not sent', async () => {
    const run = async (app: TestApp, command: string[]) => {
      const response = await app.app.inject({
        method: 'POST',
        url: '/api/admin/run',
        remoteAddress: '127.0.0.1',
        headers: { 'x-admin-token': app.app.adminToken },
        payload: { command },
      });
      return response.json<{ code: number; data: ResultOf<'messages test'> }>().data;
    };
    const outbox = await startApp();
    closing.push(outbox.close);
    const sent = await run(outbox, ['messages', 'test', 'sms', '+8613800138000']);
    expect(sent).toMatchObject({ channel: 'sms', to: '+8613800138000', provider: 'dev', sent: true, refusal: null });
    expect(outbox.app.sms.outbox!.at(-1)).toMatchObject({ to: '+8613800138000', kind: 'loginCode' });
    const command = outbox.app.adminCommands.find(['messages', 'test'])!.command;
    expect(command.format(sent)).toMatch(/^Sent by dev to \+8613800138000 \(its id: dev-1\)/);
    expect(() => command.parse(['email', 'not-an-address'])).toThrow(/"not-an-address" is not an e-mail address/);
    expect(() => command.parse(['fax', '123'])).toThrow(UsageError);

    // A gateway nobody listens at: the answer says so, and the CLI exits 1 (found: false).
    const unanswered = await startApp({ EMAIL_PROVIDER: 'http', EMAIL_GATEWAY_URL: 'http://127.0.0.1:9/mail', EMAIL_GATEWAY_SECRET: 'a-secret-of-sixteen+' });
    closing.push(unanswered.close);
    const refused = await run(unanswered, ['messages', 'test', 'email', 'ops@example.com']);
    expect(refused).toMatchObject({ provider: 'http', sent: false, refusal: 'unreachable', error: 'Gateway http://127.0.0.1:9/mail could not be reached' });
    expect(command.found!(refused)).toBe(false);
    expect(command.format(refused)).toBe('Not sent: http unreachable: Gateway http://127.0.0.1:9/mail could not be reached');
  });
});
