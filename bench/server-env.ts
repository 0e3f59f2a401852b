/**
 * The environment of a server child that runs as a deployment does, which the
 * API, raffle and payment benchmarks share: production (no development
 * stand-ins, and answers not checked against the contract), no demo data, the
 * per-address limits out of the way (every request comes from 127.0.0.1),
 * logging at warn, its data and an empty site folder under `work`, and the
 * gateway and payment provider settings a production start needs but the
 * benchmarks never call (the payment benchmark replaces the payment settings
 * with those of the sandbox it does call).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { productionSettings } from '../tests/integration/production-settings.ts';

/** The Node flags a deployment runs the server with: those of `npm start` (package.json), as the systemd unit has them too. */
export const deploymentExecArgv: string[] = (() => {
  const { scripts } = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: { start: string } };
  return scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
})();

/** The server child's Node flags: a deployment's, and with `cpuProfileDir` a CPU profile written there as it stops (a benchmark's `--cpu-prof`). */
export function serverExecArgv(cpuProfileDir?: string): string[] {
  return cpuProfileDir ? [...deploymentExecArgv, '--cpu-prof', '--cpu-prof-dir', cpuProfileDir] : deploymentExecArgv;
}

export function deploymentEnv(work: string, databaseUrl: string): NodeJS.ProcessEnv {
  const siteDir = path.join(work, 'site');
  mkdirSync(siteDir, { recursive: true });
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(work, 'data'),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DEMO_DATA: 'false',
    RATE_LIMIT_PER_MINUTE: '100000000',
    IDENTITY_RATE_LIMIT_PER_MINUTE: '100000000',
    // The e-mail availability check (bench:api's encrypted call) has a limit of its own per address.
    REGISTER_EMAIL_CHECKS_PER_HOUR: '100000000',
    SITE_DIR: siteDir,
    ...productionSettings,
  };
}
