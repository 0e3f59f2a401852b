/**
 * The first start on a slow machine. Creating and migrating a new database
 * took longer than Fastify's 10 s plugin timeout on a busy laptop, and the
 * first `npm start` crashed. Here each server is held to a quarter of one
 * core by a cgroup's CPU quota (tests/setup/cpu-quota.ts), which reproduced
 * that crash every time; every start must now answer, however long it takes,
 * and say what it is doing meanwhile.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cpuQuota } from '../setup/cpu-quota.ts';
import { runningPort, runServer } from './server-process.ts';

const root = path.resolve(import.meta.dirname, '../..');
const share = 0.25;

/**
 * Runs `command` in a new cgroup held to `share` of a core, in its own process
 * group, until `done` says its output is complete (or it exits); then stops the
 * whole group and gives the output.
 */
async function runSlowly(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, done: (output: string) => Promise<boolean>) {
  const quota = cpuQuota(`beacon-slow-start-${process.pid}-${name}`, share);
  const [file, argv] = quota.wrap(command, args);
  const child = spawn(file, argv, { cwd: root, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let finished = false;
  const outcome = new Promise<'done' | 'exited'>((resolve) => {
    const onData = async (chunk: Buffer) => {
      output += chunk;
      if (!finished && (await done(output))) {
        finished = true;
        resolve('done');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => resolve('exited'));
  });
  try {
    return { outcome: await outcome, output };
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    await quota.remove();
  }
}

beforeAll(() => {
  // The site is built (if it is not yet) at full speed: what is slow here is the server's start, not the build.
  const built = spawn(process.execPath, ['server/site/ensure-built.ts'], { cwd: root, stdio: 'inherit' });
  return new Promise<void>((resolve, reject) => built.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the site build failed (${code})`)))));
}, 600_000);

// Side by side, as a newcomer's busy machine would run them; each has its own quarter of a core.
describe.concurrent('a first start held to a quarter of a core', () => {
  it('npm start on three new databases: every one answers the home page and the readiness check', { timeout: 600_000 }, async () => {
    const starts = ['a', 'b', 'c'].map(async (name) => {
      const folder = mkdtempSync(path.join(tmpdir(), `beacon-slow-${name}-`));
      let answers: number[] = [];
      const { outcome, output } = await runSlowly(
        name,
        'npm',
        ['start'],
        { PORT: '0', HOST: '127.0.0.1', DATA_DIR: folder, DATABASE_URL: `file://${path.join(folder, 'db')}`, LOG_LEVEL: 'info' },
        async (text) => {
          const port = runningPort(text);
          if (!port) return false;
          answers = await Promise.all(['/', '/api/ready'].map(async (url) => (await fetch(`http://127.0.0.1:${port}${url}`)).status));
          return true;
        },
      );
      return { outcome, output, answers };
    });
    for (const { outcome, output, answers } of await Promise.all(starts)) {
      expect(outcome, output).toBe('done');
      expect(answers).toEqual([200, 200]);
      // It said what it was doing while it was slow.
      expect(output).toMatch(/Creating the database in .* \(first start only\)/);
      expect(output).toMatch(/Applying migration 1 of \d+/);
      expect(output).toContain('Starting the job queue');
    }
  });

  it('the test harness’s buildApp on a new database answers the readiness check', { timeout: 600_000 }, async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'beacon-slow-harness-'));
    const { outcome, output } = await runSlowly(
      'harness',
      process.execPath,
      [path.join(import.meta.dirname, 'slow-start-harness.ts')],
      { DATABASE_URL: `file://${path.join(folder, 'db')}` },
      async (text) => text.includes('ready:'),
    );
    expect(outcome, output).toBe('done');
    expect(output).toContain('ready: 200 {"Database":"up","Jobs":"up","Redis":"none"}');
  });
});

describe('a start that is stuck', () => {
  it('on a PostgreSQL that never answers fails after DATABASE_CONNECT_TIMEOUT, naming it', async () => {
    // Accepts connections and says nothing, as a server behind a dead network path would.
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const server = await runServer({
        DATABASE_URL: `postgres://beacon@127.0.0.1:${port}/beacon`,
        DATABASE_CONNECT_TIMEOUT: '1',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'beacon-stuck-')),
      });
      expect(await server.exit).toBe(1);
      expect(server.stderr()).toContain(`PostgreSQL at 127.0.0.1:${port} (DATABASE_URL) did not answer within 1 s (DATABASE_CONNECT_TIMEOUT)`);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });
});
