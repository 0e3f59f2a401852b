/**
 * The machine's load average (1, 5 and 15 min) at a benchmark's start and
 * end, which every benchmark prints and records in its results: on a shared
 * machine other work moves every figure, and this says how much there was.
 */
import { loadavg } from 'node:os';

/** The load averages over 1, 5 and 15 minutes when the benchmark started and when it ended. */
export interface MachineLoad {
  start: number[];
  end: number[];
}

function reading(moment: 'start' | 'end'): number[] {
  const averages = loadavg().map((value) => Number(value.toFixed(2)));
  console.log(`Load average at the ${moment} (1, 5, 15 min): ${averages.join(' ')}`);
  return averages;
}

/** Prints the load average now; `end` prints it again and answers both, for the results file. */
export function watchLoad(): { end(): MachineLoad } {
  const start = reading('start');
  return { end: () => ({ start, end: reading('end') }) };
}
