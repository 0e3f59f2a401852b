/**
 * Throwaway Redis server for the scale-out tests, run from Debian's packaged
 * binary (installed when missing, as ./postgres.ts does for PostgreSQL). Each
 * call gets its own free port and nothing on disk; stop() ends it.
 *
 * Set TEST_REDIS_URL to use your own server instead.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { freePort } from './free-port.ts';

export interface TestRedis {
  url: string;
  stop: () => Promise<void>;
  /** Stops the server (its clients' connections end); `startAgain` starts a new one on the same port, empty. */
  shutDown: () => Promise<void>;
  startAgain: () => Promise<void>;
}

const binary = '/usr/bin/redis-server';

export async function startRedis(): Promise<TestRedis> {
  const external = process.env.TEST_REDIS_URL;
  if (external) {
    const notOurs = async () => {
      throw new Error('TEST_REDIS_URL names a server of your own, which the tests do not stop: unset it to test an outage');
    };
    return { url: external, stop: async () => {}, shutDown: notOurs, startAgain: notOurs };
  }

  installIfMissing();
  const port = await freePort();
  let server: ChildProcess | null = null;
  const onExit = () => server?.kill('SIGKILL');
  process.on('exit', onExit);
  const start = async () => {
    // No snapshots, no append-only file: a test server keeps nothing.
    server = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForPort(port, server);
  };
  const shutDown = async () => {
    const running = server;
    server = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      process.off('exit', onExit);
      await shutDown();
    },
    shutDown,
    startAgain: start,
  };
}

function installIfMissing(): void {
  if (existsSync(binary)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'redis-server not found. Install the Debian package with: sudo apt-get install redis-server (or set TEST_REDIS_URL to use your own server).',
    );
  }
  console.log('Installing Debian redis-server for the scale-out tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const policy = spawnSync('apt-cache', ['policy', 'redis-server'], { encoding: 'utf8' });
  if (!/Candidate:\s*(?!\(none\))\S+/.test(policy.stdout ?? '')) execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], { stdio: 'inherit', env });
  // The package starts a system-wide server; the tests run their own.
  spawnSync('service', ['redis-server', 'stop'], { stdio: 'ignore' });
  if (!existsSync(binary)) throw new Error(`Installed redis-server but ${binary} is missing`);
}

/** Until redis-server listens: a busy machine may take seconds; a minute means it is stuck. */
async function waitForPort(port: number, server: ReturnType<typeof spawn>): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if (server.exitCode !== null) throw new Error(`redis-server exited with code ${server.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not listen on port ${port} within a minute`);
}
