/**
 * A steady load of mixed requests through nginx, as customers make them: pages
 * and hashed assets (nginx's own), public API calls, a logged-in customer's
 * calls and hub negotiations (POST) on the instances. It comes from several
 * loopback addresses, so nginx's address hash spreads it over both instances,
 * each address at a set pace: as fast as the server answers, a faster server
 * would send more than its per-address rate limit allows and be refused.
 *
 * Every answer is kept (when it was sent, how long it took, its status, and
 * whether an error was our JSON envelope with `Retry-After`). An answer the
 * caller does not accept — by default anything but 2xx and 3xx; a refused or
 * cut connection, or no answer within `hangMs`, always — is a failure,
 * counted and described.
 */
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** A JSON body. */
  body?: string;
}

export interface Answer {
  /** `performance.now()` when it was sent. */
  sentAt: number;
  ms: number;
  /** The HTTP status, or what stopped the request (a reset, no answer in time). */
  status: number | string;
  /** An error answered as the API's envelope (JSON with a numeric `code`) with a `Retry-After`, as opposed to a proxy's page. */
  envelopeWithRetryAfter: boolean;
  call: string;
}

export interface LoadReport {
  sent: number;
  failed: number;
  failures: string[];
  answers: Answer[];
  /** `503×12, 200×400`: how many answers of each status (and error), most first. */
  byStatus(): string;
  /** The slowest answer, in ms. */
  slowestMs(): number;
  /** How long after `at` (performance.now()) the first API call sent since was answered with success, in ms; null if none was. */
  firstSuccessAfter(at: number): number | null;
}

const succeeded = (answer: Answer) => typeof answer.status === 'number' && answer.status >= 200 && answer.status < 400;

/** One request from `localAddress`, given up after `hangMs`. */
function send(origin: URL, localAddress: string, call: LoadRequest, hangMs: number): Promise<Omit<Answer, 'sentAt' | 'call' | 'ms'>> {
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: origin.hostname,
        port: origin.port,
        method: call.method,
        path: call.path,
        headers: { connection: 'close', ...(call.body ? { 'content-type': 'application/json' } : {}), ...call.headers },
        localAddress,
        timeout: hangMs,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let body = '';
        response.setEncoding('utf8');
        // Only an error's body is read: it tells the API's envelope from a proxy's page.
        response.on('data', (chunk: string) => void (status >= 400 && body.length < 4096 && (body += chunk)));
        response.on('end', () => {
          const envelope = (() => {
            try {
              return typeof (JSON.parse(body) as { code?: unknown }).code === 'number';
            } catch {
              return false;
            }
          })();
          resolve({ status, envelopeWithRetryAfter: envelope && Number(response.headers['retry-after']) > 0 });
        });
        response.on('error', (error) => resolve({ status: error.message, envelopeWithRetryAfter: false }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${hangMs / 1000} s`)));
    outgoing.on('error', (error) => resolve({ status: error.message, envelopeWithRetryAfter: false }));
    outgoing.end(call.body);
  });
}

/**
 * Starts `workers` loops, each from its own loopback address, sending the
 * calls in turn, at most `perSecond` a second each, until `stop()`, which
 * waits for the last answers and reports. `accepts` says which answers other
 * than a success are acceptable (a 503 envelope while the database is away).
 */
export function steadyLoad(
  origin: string,
  calls: LoadRequest[],
  {
    perSecond,
    workers = 8,
    hangMs = 30_000,
    accepts = () => false,
  }: { perSecond: number; workers?: number; hangMs?: number; accepts?: (answer: Answer) => boolean },
): { stop(): Promise<LoadReport> } {
  const url = new URL(origin);
  const answers: Answer[] = [];
  const failures: string[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async (_, worker) => {
    const from = `127.0.0.${worker + 2}`;
    for (let turn = worker; running; turn++) {
      const sentAt = performance.now();
      const call = calls[turn % calls.length];
      const name = `${call.method} ${call.path}`;
      const answer = { sentAt, call: name, ...(await send(url, from, call, hangMs)), ms: 0 };
      answer.ms = performance.now() - sentAt;
      answers.push(answer);
      if (!succeeded(answer) && (typeof answer.status === 'string' || !accepts(answer))) failures.push(`${from} ${name}: ${answer.status}`);
      // Pacing, not waiting for a condition: the next request of this address is due then.
      await sleep(Math.max(0, sentAt + 1000 / perSecond - performance.now()));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return {
        sent: answers.length,
        failed: failures.length,
        failures,
        answers,
        byStatus() {
          const counts = new Map<string, number>();
          for (const { status } of answers) counts.set(String(status), (counts.get(String(status)) ?? 0) + 1);
          return [...counts]
            .sort((a, b) => b[1] - a[1])
            .map(([status, count]) => `${status}×${count}`)
            .join(', ');
        },
        slowestMs: () => Math.max(0, ...answers.map((answer) => answer.ms)),
        firstSuccessAfter(at) {
          const first = answers
            .filter((answer) => answer.sentAt >= at && answer.call.includes(' /api/') && succeeded(answer))
            .sort((a, b) => a.sentAt - b.sentAt)[0];
          return first ? first.sentAt + first.ms - at : null;
        },
      };
    },
  };
}
