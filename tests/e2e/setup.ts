/**
 * Gets a fresh machine ready for the browser tests: the system Chromium
 * (Debian's package, never a downloaded browser build) and a built site.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(chromium)) {
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${chromium}. Install it with: sudo apt-get install chromium`);
    process.exit(1);
  }
  console.log('Installing Debian chromium for the browser tests…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

const built = spawnSync(process.execPath, ['server/site/ensure-built.ts'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
