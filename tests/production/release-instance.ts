/**
 * One production instance started from an installed release as
 * deploy/systemd/beacon-api@.service starts it — its ExecStart, WorkingDirectory
 * and Environment, /srv/beacon being the release, systemd's PATH — with the
 * settings given, on a port and a DATA_DIR of its own, and waited for until
 * /api/ready says it serves (a first start creates the database: no fixed
 * length on a busy machine).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../setup/free-port.ts';

/** systemd's PATH for a service: nothing of the project's is on it, so the unit must name its Node. */
export const systemdPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface ReleaseInstance {
  origin: string;
  /** The settings it runs with (the operators' command needs the same). */
  settings: Record<string, string>;
  /** What it printed so far. */
  output(): string;
  /** Stops it with SIGTERM and answers its exit code. */
  stop(): Promise<number | null>;
  /** Kills it, if it still runs, and removes its DATA_DIR. */
  remove(): void;
}

export async function startReleaseInstance(release: string, settings: Record<string, string>): Promise<ReleaseInstance> {
  const unit = readFileSync(path.join(release, 'deploy/systemd/beacon-api@.service'), 'utf8');
  const directive = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((match) => match[1].replaceAll('/srv/beacon', release));
  const port = await freePort();
  const data = mkdtempSync(path.join(tmpdir(), 'beacon-instance-data-'));
  const origin = `http://127.0.0.1:${port}`;
  const all = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: data,
    DATABASE_URL: `file://${path.join(data, 'db')}`,
    DEMO_DATA: 'false',
    SITE_DIR: path.join(release, 'dist'),
    SITE_URL: origin,
    ...settings,
  };
  const [command, ...args] = directive('ExecStart')[0].split(/\s+/);
  const environment = Object.fromEntries(directive('Environment').map((pair) => pair.replace('%i', String(port)).split('=', 2)));
  const instance = spawn(command, args, { cwd: directive('WorkingDirectory')[0], env: { PATH: systemdPath, ...all, ...environment } });
  let output = '';
  instance.stdout.on('data', (chunk) => (output += chunk));
  instance.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => instance.on('exit', resolve));
  const remove = () => {
    instance.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  };
  try {
    for (;;) {
      if (instance.exitCode !== null) throw new Error(`The instance ended (${instance.exitCode}) while starting:\n${output}`);
      const answer = await fetch(`${origin}/api/ready`).catch(() => null);
      if (answer?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    remove();
    throw error;
  }
  return {
    origin,
    settings: all,
    output: () => output,
    async stop() {
      instance.kill('SIGTERM');
      return exited;
    },
    remove,
  };
}
