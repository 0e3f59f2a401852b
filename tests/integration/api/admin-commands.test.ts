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
import { startApp } from './harness.ts';

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
});
