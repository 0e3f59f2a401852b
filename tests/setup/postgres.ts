/**
 * Throwaway PostgreSQL server for the integration tests, run from Debian's
 * packaged binaries (no Docker, no downloaded builds). Each call gets its own
 * temp data folder and free port; stop() removes both.
 *
 * Set TEST_POSTGRES_URL to use your own server instead.
 */
import { execFile, execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

export interface TestPostgres {
  url: string;
  stop: () => Promise<void>;
  /** Shuts the server down as an upgrade or a fail-over does (`pg_ctl stop -m fast`: sessions are ended), keeping its data. */
  shutDown: () => Promise<void>;
  /** Starts it again after `shutDown`, on the same port with the same data; resolves once it accepts connections. */
  startAgain: () => Promise<void>;
}

const PG_ROOT = '/usr/lib/postgresql';
const DB_NAME = 'beacon_test';
const SUPERUSER = 'postgres';

const isRoot = (): boolean => process.getuid?.() === 0;

export async function startPostgres(): Promise<TestPostgres> {
  const external = process.env.TEST_POSTGRES_URL;
  if (external) {
    const notOurs = async () => {
      throw new Error('TEST_POSTGRES_URL names a server of your own, which the tests do not stop: unset it to test a restart');
    };
    return { url: external, stop: async () => {}, shutDown: notOurs, startAgain: notOurs };
  }

  const bin = findOrInstallBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'beacon-pg-'));
  const server: Server = { bin, dir, dataDir: join(dir, 'data'), port: 0 };
  // initdb refuses to run as root, so root runs everything as the postgres user.
  if (isRoot()) chownSync(dir, postgresUid(), postgresGid());

  const onExit = (): void => stopSync(server);
  process.on('exit', onExit);
  try {
    initCluster(server);
    server.port = await freePort();
    startServer(server);
    createDatabase(server);
  } catch (error) {
    process.off('exit', onExit);
    stopSync(server);
    throw error;
  }

  let stopped = false;
  return {
    url: `postgres://${SUPERUSER}@127.0.0.1:${server.port}/${DB_NAME}`,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.off('exit', onExit);
      stopSync(server);
    },
    shutDown: () => runPgInBackground(server, ['stop', '-w', '-m', 'fast', '-D', server.dataDir]),
    startAgain: () => runPgInBackground(server, startArguments(server)),
  };
}

interface Server {
  bin: string;
  dir: string; // temp folder: holds data/, the unix socket and the log
  dataDir: string;
  port: number;
}

/** Highest installed major's bin dir, installing Debian's postgresql package if none is. */
function findOrInstallBinDir(): string {
  const found = findBinDir();
  if (found) return found;
  if (!isRoot()) {
    throw new Error(
      `PostgreSQL server binaries not found under ${PG_ROOT}/<major>/bin. ` +
        'Install the Debian package with: sudo apt-get install postgresql ' +
        '(or set TEST_POSTGRES_URL to use your own server).',
    );
  }
  console.log('Installing Debian postgresql for the integration tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!hasAptCandidate('postgresql')) execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'postgresql'], { stdio: 'inherit', env });
  const installed = findBinDir();
  if (!installed) throw new Error(`Installed postgresql but found no initdb/pg_ctl under ${PG_ROOT}`);
  return installed;
}

function findBinDir(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const majors = readdirSync(PG_ROOT)
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .filter((name) => ['initdb', 'pg_ctl', 'createdb'].every((tool) => existsSync(join(PG_ROOT, name, 'bin', tool))))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(PG_ROOT, majors[0], 'bin');
}

/** apt-get update is slow; skip it when the package lists already know the package. */
function hasAptCandidate(pkg: string): boolean {
  const policy = spawnSync('apt-cache', ['policy', pkg], { encoding: 'utf8' });
  const candidate = /Candidate:\s*(\S+)/.exec(policy.stdout ?? '')?.[1];
  return policy.status === 0 && candidate !== undefined && candidate !== '(none)';
}

function postgresUid(): number {
  return Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }).trim());
}

function postgresGid(): number {
  return Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }).trim());
}

/** A PostgreSQL tool's command line, as the postgres user when we are root. */
function pgCommand(server: Server, tool: string, args: string[]): [string, string[]] {
  const command = join(server.bin, tool);
  return isRoot() ? ['runuser', ['-u', SUPERUSER, '--', command, ...args]] : [command, args];
}

/** Runs a PostgreSQL tool. */
function runPg(server: Server, tool: string, args: string[]): SpawnSyncReturns<string> {
  // cwd = temp folder: the postgres user may not be allowed into our cwd (e.g. /root).
  return spawnSync(...pgCommand(server, tool, args), { cwd: server.dir, encoding: 'utf8' });
}

function runPgOrThrow(server: Server, tool: string, args: string[]): void {
  const result = runPg(server, tool, args);
  if (result.status === 0) return;
  const output = [result.error?.message, result.stdout, result.stderr, serverLog(server)].filter(Boolean).join('\n');
  throw new Error(`${tool} ${args.join(' ')} failed (exit ${result.status}):\n${output}`);
}

function initCluster(server: Server): void {
  runPgOrThrow(server, 'initdb', ['-D', server.dataDir, '-U', SUPERUSER, '--auth=trust', '--no-sync', '--locale=C', '--encoding=UTF8']);
}

/**
 * `pg_ctl` while the test goes on (a test measuring requests meanwhile must not
 * have its own event loop held up).
 */
function runPgInBackground(server: Server, args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(...pgCommand(server, 'pg_ctl', args), { cwd: server.dir }, (error, stdout, stderr) =>
      error ? reject(new Error(`pg_ctl ${args[0]} failed: ${error.message}\n${stdout}${stderr}`)) : resolve(),
    ),
  );
}

function startServer(server: Server): void {
  runPgOrThrow(server, 'pg_ctl', startArguments(server));
}

function startArguments(server: Server): string[] {
  // pg_ctl hands -o to /bin/sh, so the socket path is single-quoted.
  const options = [
    '-c listen_addresses=127.0.0.1',
    `-p ${server.port}`,
    `-k '${server.dir.replaceAll("'", `'\\''`)}'`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  return ['start', '-w', '-D', server.dataDir, '-l', logFile(server), '-o', options];
}

function createDatabase(server: Server): void {
  runPgOrThrow(server, 'createdb', ['-h', '127.0.0.1', '-p', String(server.port), '-U', SUPERUSER, DB_NAME]);
}

/** Synchronous so it can also run from process.on('exit'). Best effort: never throws. */
function stopSync(server: Server): void {
  if (existsSync(join(server.dataDir, 'postmaster.pid'))) {
    runPg(server, 'pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', server.dataDir]);
  }
  rmSync(server.dir, { recursive: true, force: true });
}

function logFile(server: Server): string {
  return join(server.dir, 'server.log');
}

function serverLog(server: Server): string {
  try {
    return readFileSync(logFile(server), 'utf8');
  } catch {
    return '';
  }
}
