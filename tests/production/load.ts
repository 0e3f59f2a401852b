/**
 * A steady load of mixed requests through nginx, as customers make them: pages
 * and hashed assets (nginx's own), public API calls, a logged-in customer's
 * calls and hub negotiations (POST) on the instances. It comes from several
 * loopback addresses, so nginx's address hash spreads it over both instances,
 * each address at a set pace: as fast as the server answers, a faster server
 * would send more than its per-address rate limit allows and be refused.
 * Every answer must be the expected status; anything else (a 5xx, a refused
 * or cut connection) is a failure, counted and described.
 */
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
}

export interface LoadReport {
  sent: number;
  failed: number;
  failures: string[];
}

/** One request from `localAddress`: its status, or the error that stopped it. */
function send(origin: URL, localAddress: string, call: LoadRequest): Promise<number | string> {
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: origin.hostname,
        port: origin.port,
        method: call.method,
        path: call.path,
        headers: { connection: 'close', ...call.headers },
        localAddress,
        timeout: 30_000,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', (error) => resolve(error.message));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 30 s')));
    outgoing.on('error', (error) => resolve(error.message));
    outgoing.end();
  });
}

/**
 * Starts `workers` loops, each from its own loopback address, sending the
 * calls in turn, at most `perSecond` a second each, until `stop()`, which
 * waits for the last answers and reports.
 */
export function steadyLoad(
  origin: string,
  calls: LoadRequest[],
  { perSecond, workers = 8 }: { perSecond: number; workers?: number },
): { stop(): Promise<LoadReport> } {
  const url = new URL(origin);
  const report: LoadReport = { sent: 0, failed: 0, failures: [] };
  let running = true;
  const loops = Array.from({ length: workers }, async (_, worker) => {
    const from = `127.0.0.${worker + 2}`;
    for (let turn = worker; running; turn++) {
      const due = performance.now() + 1000 / perSecond;
      const call = calls[turn % calls.length];
      report.sent++;
      const status = await send(url, from, call);
      if (typeof status !== 'number' || status < 200 || status >= 400) {
        report.failed++;
        report.failures.push(`${from} ${call.method} ${call.path}: ${status}`);
      }
      // Pacing, not waiting for a condition: the next request of this address is due then.
      await sleep(Math.max(0, due - performance.now()));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return report;
    },
  };
}
