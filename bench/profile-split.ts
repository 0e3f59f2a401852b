/**
 * Where a server's CPU went, by kind of work, from the CPU profiles its
 * threads wrote (`--cpu-prof`): `bench:pay --cpu-prof` prints it per paid
 * order beside the floor of each kind (docs/benchmarks.md, "The floor of a
 * paid order").
 *
 * V8 samples a thread's stack at an interval and records how long since the
 * last sample; a sample counts for the first kind below whose mark is
 * anywhere on its stack (so a socket write under node-postgres is a
 * statement, one under Fastify's reply is HTTP), or by its own frame for
 * garbage collection and JSON. Only samples between `fromUs` and `toUs`
 * (CLOCK_MONOTONIC in µs, as `process.hrtime` reads it) count: the measured
 * run, not the start or the warm-up. The RSA pool's threads count as RSA
 * while they run an operation; their waits for work are not CPU.
 *
 * A sampled stack that waits in a system call (a socket write while the
 * other processes hold both cores) is wall time rather than CPU, so the
 * shares are an estimate; the total they are shares of is measured.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The kinds of work, in the order a stack is matched against them, each with the frames that mark it. */
export const kinds = [
  { kind: 'QR code', marks: [/node_modules\/qrcode\//, /\/services\/qr-svg\.ts/] },
  { kind: 'logging', marks: [/node_modules\/(pino|thread-stream|sonic-boom)\//] },
  { kind: 'job queue', marks: [/node_modules\/pg-boss\//, /\/server\/db\/jobs\.ts/] },
  { kind: 'hub push', marks: [/\/server\/realtime\//] },
  { kind: 'RSA (the pool)', marks: [/\/services\/rsa-(pool|worker)\.ts/, /node_modules\/piscina\//] },
  { kind: 'sealing (AES)', marks: [/\/server\/crypto\/sealed\.ts/, /\/server\/plugins\/sealing\.ts/] },
  { kind: 'signatures', marks: [/\/services\/wechatpay\.ts/, /\/services\/alipay-gateway-signing\.ts/, /node_modules\/alipay-sdk\//] },
  { kind: 'statements', marks: [/node_modules\/(drizzle-orm|pg|pg-pool|pg-protocol|@electric-sql\/pglite)\//, /^wasm:/, /\/server\/db\//] },
  { kind: 'HTTP out (undici)', marks: [/node_modules\/undici\//, /\/services\/outbound-http\.ts/] },
  // What the routes do besides the kinds above: checking requests against the contract, the handlers, the answers.
  { kind: 'handlers and validation', marks: [/\/server\/(modules|http|i18n)\//, /\/contract\//, /node_modules\/zod\//] },
  { kind: 'HTTP in (Fastify, node:http)', marks: [/node_modules\/(fastify|@fastify|find-my-way|light-my-request|helmet|avvio)\//, /^node:_http/] },
] as const;
export type Kind = (typeof kinds)[number]['kind'] | 'JSON' | 'garbage collection' | 'the app and the rest';

/** Frames that are a thread waiting, not working. */
const waiting = new Set(['(idle)', 'atomicsWaitLoop', '(program)']);

function splitOne(profile: Profile, fromUs: number, toUs: number, workerThread: boolean): Map<Kind, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const kindOf = new Map<number, Kind | null>();
  function classify(id: number): Kind | null {
    const known = kindOf.get(id);
    if (known !== undefined) return known;
    const leaf = byId.get(id)!;
    let kind: Kind | null;
    if (waiting.has(leaf.callFrame.functionName)) kind = null;
    else if (leaf.callFrame.functionName === '(garbage collector)') kind = 'garbage collection';
    else if (leaf.callFrame.url === '' && /^(parse|stringify)$/.test(leaf.callFrame.functionName)) kind = 'JSON';
    else {
      const urls: string[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) urls.push(byId.get(at)!.callFrame.url);
      kind = kinds.find(({ marks }) => urls.some((url) => marks.some((mark) => mark.test(url))))?.kind ?? 'the app and the rest';
      // A pool thread's own work is the operation it was handed.
      if (workerThread) kind = 'RSA (the pool)';
    }
    kindOf.set(id, kind);
    return kind;
  }
  const totals = new Map<Kind, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (at < fromUs || at > toUs) return;
    const kind = classify(id);
    if (kind) totals.set(kind, (totals.get(kind) ?? 0) + profile.timeDeltas[i]);
  });
  return totals;
}

/**
 * The shares of each kind of work in the profiles `pid` wrote into `folder` (its main thread's and
 * its worker threads'), over the window: fractions of the sampled busy time, largest first.
 */
export function profileShares(folder: string, pid: number, fromUs: number, toUs: number): Array<{ kind: Kind; share: number }> {
  // Node names them CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile; thread 0 is the main one.
  const files = readdirSync(folder).filter((name) => name.startsWith('CPU.') && name.split('.')[3] === String(pid));
  if (files.length === 0) throw new Error(`no CPU profile of process ${pid} in ${folder}`);
  const totals = new Map<Kind, number>();
  for (const name of files) {
    const profile = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as Profile;
    for (const [kind, us] of splitOne(profile, fromUs, toUs, name.split('.')[4] !== '0')) totals.set(kind, (totals.get(kind) ?? 0) + us);
  }
  const busy = [...totals.values()].reduce((sum, us) => sum + us, 0);
  return [...totals].map(([kind, us]) => ({ kind, share: us / busy })).sort((a, b) => b.share - a.share);
}
