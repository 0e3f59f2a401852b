/**
 * The yardstick the money path's CPU goals are stated in (issue 50): one
 * RSA-2048 private-key operation on one core, as `openssl speed` measures it
 * in the same run. A goal in these operations means the same on a slower or
 * busier machine as on this one, where a figure in milliseconds would not.
 */
import { execFileSync } from 'node:child_process';

export interface RsaFloor {
  /** Private-key operations per second on one core. */
  opsPerSecond: number;
  /** The time of one, in ms. */
  opMs: number;
}

/** `openssl speed rsa2048` for 3 s, told on stdout as it runs. */
export function measureRsaFloor(): RsaFloor {
  process.stdout.write('openssl speed rsa2048 (3 s) … ');
  const printed = execFileSync('openssl', ['speed', '-seconds', '3', 'rsa2048'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const row = printed.match(/^rsa\s+2048 bits\s+\S+s\s+\S+s\s+([\d.]+)/m);
  if (!row) throw new Error(`openssl speed rsa2048 printed no result:\n${printed}`);
  const opsPerSecond = Number(row[1]);
  console.log(`${Math.round(opsPerSecond).toLocaleString('en')} private-key operations/s on one core (${(1000 / opsPerSecond).toFixed(3)} ms each)`);
  return { opsPerSecond, opMs: 1000 / opsPerSecond };
}

/** `cpuMs` in RSA-2048 private operations' worth, to one decimal. */
export const inRsaOps = (cpuMs: number, floor: RsaFloor): number => Number((cpuMs / floor.opMs).toFixed(1));
