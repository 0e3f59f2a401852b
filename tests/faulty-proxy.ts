/**
 * A provider's link going bad, for tests: an HTTP proxy in front of a
 * provider's double (the payment sandbox, an SMS gateway) that passes every
 * call on until it is told to fail, then, for each call:
 *
 * - `slow`: passes the call on at once (the provider does the work) but
 *   answers only after `slowMs`, as a provider that is crawling;
 * - `fail`: answers 500 with a body no provider signs, passing nothing on;
 * - `reset`: closes the connection without a word, passing nothing on;
 * - `garbage`: answers 200 with what is not the provider's protocol, passing nothing on.
 */
import { buffer } from 'node:stream/consumers';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const faults = ['slow', 'fail', 'reset', 'garbage'] as const;
export type Fault = (typeof faults)[number];

export interface FaultyProxy {
  /** Where to send the provider's calls instead of `target`. */
  origin: string;
  /** The fault every call meets now; null passes calls on as they are. */
  fault: Fault | null;
  /** How long a `slow` answer is held back. */
  slowMs: number;
  /** Calls passed on to the provider so far (a `slow` one included), as `METHOD /path`. */
  readonly passed: string[];
  close(): Promise<void>;
}

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

/** A proxy on 127.0.0.1 in front of `target` (an origin, with or without a path prefix the calls keep). */
export async function faultyProxy(target: string, slowMs = 30_000): Promise<FaultyProxy> {
  const held = new Set<NodeJS.Timeout>();
  const passed: string[] = [];

  async function passOn(request: IncomingMessage, response: ServerResponse, delayMs: number) {
    const body = await buffer(request);
    const headers = Object.entries(request.headers).filter(([name]) => !hopByHop.has(name)) as Array<[string, string]>;
    passed.push(`${request.method} ${request.url}`);
    const answer = await fetch(new URL(request.url ?? '/', target), {
      method: request.method,
      headers,
      body: body.length > 0 ? new Uint8Array(body) : undefined,
    });
    const text = Buffer.from(await answer.arrayBuffer());
    const send = () => {
      held.delete(timer);
      if (response.destroyed) return;
      for (const [name, value] of answer.headers) if (!hopByHop.has(name)) response.setHeader(name, value);
      response.writeHead(answer.status).end(text);
    };
    const timer = setTimeout(send, delayMs);
    held.add(timer);
  }

  const server = createServer((request, response) => {
    const fault = proxy.fault;
    if (fault === 'reset') return void request.socket.destroy();
    if (fault === 'fail') return void response.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"SYSTEM_ERROR","message":"系统错误"}');
    if (fault === 'garbage') return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
    passOn(request, response, fault === 'slow' ? proxy.slowMs : 0).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const proxy: FaultyProxy = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fault: null,
    slowMs,
    passed,
    async close() {
      for (const timer of held) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return proxy;
}
