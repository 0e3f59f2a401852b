/**
 * The outbound HTTP client (server/services/outbound-http.ts), against
 * listeners of the test's own: in production it reaches no loopback, private
 * or link-local address — given as a literal or behind a name — unless the
 * setting names it; it follows no redirect to another host; it stops reading
 * at the size cap, and gives up at the deadline.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { OutboundError, outboundHttp, type OutboundSettings } from '../../server/services/outbound-http.ts';

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

/** A listener on 127.0.0.1 that records the requests reaching it. */
async function listener(handle: RequestListener = (_request, response) => response.end('{"ok":true}')) {
  const requests: string[] = [];
  let sent = 0;
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const write = response.write.bind(response) as (chunk: Buffer) => boolean;
    response.write = ((chunk: Buffer) => ((sent += chunk.length), write(chunk))) as typeof response.write;
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  opened.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { port, requests, sent: () => sent };
}

function client(settings: Partial<OutboundSettings> = {}) {
  const http = outboundHttp({ timeoutMs: 2000, maxBytes: 64 * 1024, publicOnly: true, allowed: [], ...settings });
  opened.push(() => http.close());
  return http.fetch;
}

describe('in production', () => {
  it('refuses loopback, private, link-local and mapped addresses, and a name that resolves to loopback, before sending anything', async () => {
    const local = await listener();
    const fetch = client();
    for (const url of [
      `http://127.0.0.1:${local.port}/`,
      `http://[::1]:${local.port}/`,
      'http://10.1.2.3/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::ffff:127.0.0.1]:${local.port}/`,
      'http://[fd00::1]/',
      'http://0.0.0.0/',
      `http://localhost:${local.port}/`,
    ]) {
      await expect(fetch(url), url).rejects.toThrow(/is not a public address/);
    }
    expect(local.requests).toEqual([]);
  });

  it('reaches them when OUTBOUND_ALLOWED_NETWORKS names them, by network, address or host name', async () => {
    const local = await listener();
    for (const allowed of [['127.0.0.0/8'], ['127.0.0.1'], ['10.0.0.0/8', 'localhost']]) {
      const url = allowed.includes('localhost') ? `http://localhost:${local.port}/` : `http://127.0.0.1:${local.port}/`;
      const answer = await client({ allowed })(url);
      expect(await answer.json(), allowed.join()).toEqual({ ok: true });
    }
    expect(local.requests).toHaveLength(3);
  });
});

describe('anywhere', () => {
  it('reaches private addresses outside production', async () => {
    const local = await listener();
    expect(await (await client({ publicOnly: false })(`http://127.0.0.1:${local.port}/x`)).json()).toEqual({ ok: true });
  });

  it('follows no redirect: one to another host is refused, and that host hears nothing', async () => {
    const other = await listener();
    const redirecting = await listener((_request, response) => {
      response.writeHead(302, { location: `http://localhost:${other.port}/stolen` }).end();
    });
    await expect(client({ publicOnly: false })(`http://127.0.0.1:${redirecting.port}/`)).rejects.toThrow(/redirect/);
    expect(other.requests).toEqual([]);
  });

  it('stops reading an endless answer at the size cap and closes the connection', async () => {
    const endless = await listener((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    const began = Date.now();
    await expect(client({ publicOnly: false, timeoutMs: 10_000 })(`http://127.0.0.1:${endless.port}/`)).rejects.toThrow(/more than 65536 bytes/);
    expect(Date.now() - began).toBeLessThan(2000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const settled = endless.sent();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(endless.sent()).toBe(settled);
  });

  it('refuses an answer whose announced length is past the cap', async () => {
    const large = await listener((_request, response) => {
      response.writeHead(200, { 'content-length': String(1024 * 1024) });
      response.write(Buffer.alloc(1024));
    });
    await expect(client({ publicOnly: false })(`http://127.0.0.1:${large.port}/`)).rejects.toThrow(/more than/);
  });

  it('gives up at the deadline, whether the headers never come or the body trickles', async () => {
    const silent = await listener(() => {});
    const trickle = await listener((_request, response) => {
      response.writeHead(200);
      const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write(Buffer.from(' '))), 100);
    });
    const fetch = client({ publicOnly: false, timeoutMs: 500 });
    for (const port of [silent.port, trickle.port]) {
      const began = Date.now();
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow(/did not answer within 500 ms/);
      expect(Date.now() - began).toBeLessThan(1500);
    }
  });

  it('gives up at a call’s own deadline when it is shorter, and never waits past the setting’s', async () => {
    const silent = await listener(() => {});
    const fetch = client({ publicOnly: false, timeoutMs: 1000 });
    let began = Date.now();
    await expect(fetch(`http://127.0.0.1:${silent.port}/`, { timeoutMs: 300 })).rejects.toThrow(/did not answer within 300 ms/);
    expect(Date.now() - began).toBeLessThan(800);
    began = Date.now();
    await expect(fetch(`http://127.0.0.1:${silent.port}/`, { timeoutMs: 60_000 })).rejects.toThrow(/did not answer within 1000 ms/);
    expect(Date.now() - began).toBeLessThan(1800);
  });

  it('refuses what is not HTTP', async () => {
    await expect(client({ publicOnly: false })('file:///etc/passwd')).rejects.toThrow(OutboundError);
  });
});

describe('the setting', () => {
  it('takes networks, addresses and host names, and refuses anything else by name', () => {
    expect(loadConfig({ OUTBOUND_ALLOWED_NETWORKS: '10.0.0.0/8, [::1],127.0.0.1,sms.internal' }).OUTBOUND_ALLOWED_NETWORKS).toEqual([
      '10.0.0.0/8',
      '[::1]',
      '127.0.0.1',
      'sms.internal',
    ]);
    expect(() => loadConfig({ OUTBOUND_ALLOWED_NETWORKS: '10.0.0.0/33' })).toThrow(/OUTBOUND_ALLOWED_NETWORKS/);
    expect(() => loadConfig({ OUTBOUND_ALLOWED_NETWORKS: 'http://sms.internal/' })).toThrow(/OUTBOUND_ALLOWED_NETWORKS/);
  });
});
