/**
 * A slow machine on demand: a cgroup that holds the processes started in it,
 * and their children, to a share of one core (the CPU controller's quota; v1
 * `cpu.cfs_quota_us`, or v2 `cpu.max`). Busy loops beside a process do not
 * slow it down reliably — the scheduler shares the cores fairly — but a quota
 * does, every time. Needs root (or a delegated cgroup), as CI has.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const v1 = '/sys/fs/cgroup/cpu';
const v2 = '/sys/fs/cgroup';
const periodUs = 100_000;

export interface CpuQuota {
  /** The command and arguments that run `command` inside the cgroup (a shell joins it, then becomes the command). */
  wrap(command: string, args: string[]): [string, string[]];
  /** Removes the cgroup once the last of its processes has gone. */
  remove(): Promise<void>;
}

/** A new cgroup called `name` whose processes get `share` of one core (0.25: a quarter). */
export function cpuQuota(name: string, share: number): CpuQuota {
  const quotaUs = String(Math.round(periodUs * share));
  let procs: string;
  let folder: string;
  try {
    if (existsSync(path.join(v1, 'cpu.cfs_quota_us'))) {
      folder = path.join(v1, name);
      mkdirSync(folder);
      writeFileSync(path.join(folder, 'cpu.cfs_period_us'), String(periodUs));
      writeFileSync(path.join(folder, 'cpu.cfs_quota_us'), quotaUs);
    } else {
      if (!readFileSync(path.join(v2, 'cgroup.subtree_control'), 'utf8').includes('cpu')) writeFileSync(path.join(v2, 'cgroup.subtree_control'), '+cpu');
      folder = path.join(v2, name);
      mkdirSync(folder);
      writeFileSync(path.join(folder, 'cpu.max'), `${quotaUs} ${periodUs}`);
    }
    procs = path.join(folder, 'cgroup.procs');
  } catch (error) {
    throw new Error(
      `Cannot make a CPU-limited cgroup (${(error as Error).message}): this test slows the server down with a cgroup's CPU quota, which needs root and a cgroup file system with the cpu controller (run the tests as root, as CI does).`,
      { cause: error },
    );
  }
  return {
    wrap: (command, args) => ['sh', ['-c', 'echo $$ > "$0" && exec "$@"', procs, command, ...args]],
    async remove() {
      // A killed command's children leave a moment after it; a cgroup with processes cannot be removed.
      for (let deadline = Date.now() + 30_000; readFileSync(procs, 'utf8').trim() && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 50));
      rmdirSync(folder);
    },
  };
}
