/**
 * The hub on the wire, below the official client: what negotiate answers,
 * how each transport refuses what it must, frames split anywhere, pings,
 * timeouts and CORS — with a raw WebSocket and plain HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hubMethods } from '#contract/realtime.ts';
import { LongPollingTransport } from '../../../server/realtime/long-polling.ts';
import { negotiate, rawSocket, RS, startHubApp, testEvent, upgradeStatus, type HubApp } from './harness.ts';

const handshake = `{"protocol":"json","version":1}${RS}`;

describe('negotiate and connection ids', () => {
  let t: HubApp;
  beforeAll(async () => (t = await startHubApp()));
  afterAll(() => t.close());

  it('answers version 1 with a separate URL-safe token and all three transports in Text', async () => {
    const body = await negotiate(t, 1);
    expect(body).toEqual({
      connectionId: expect.stringMatching(/^[\w-]{22}$/),
      connectionToken: expect.stringMatching(/^[\w-]{22}$/),
      negotiateVersion: 1,
      availableTransports: [
        { transport: 'WebSockets', transferFormats: ['Text'] },
        { transport: 'ServerSentEvents', transferFormats: ['Text'] },
        { transport: 'LongPolling', transferFormats: ['Text'] },
      ],
    });
    expect(body.connectionToken).not.toBe(body.connectionId);
    expect(body).not.toHaveProperty('useStatefulReconnect');
  });

  it('answers version 0 (or no version) with the connection id as the only id', async () => {
    for (const version of [undefined, 0]) {
      const body = await negotiate(t, version);
      expect(Object.keys(body).sort()).toEqual(['availableTransports', 'connectionId']);
      const { socket, next } = await rawSocket(t, `id=${body.connectionId}`);
      socket.send(handshake);
      expect(await next()).toBe(`{}${RS}`);
      socket.close();
    }
  });

  it('refuses unknown ids (404), missing ids (400) and a second socket (409)', async () => {
    expect(await upgradeStatus(t, 'id=unknown')).toBe(404);
    for (const method of ['GET', 'POST', 'DELETE']) {
      expect((await fetch(`${t.url}?id=unknown`, { method })).status).toBe(404);
      expect((await fetch(t.url, { method })).status).toBe(400);
    }
    const { connectionToken } = await negotiate(t, 1);
    const first = await rawSocket(t, `id=${connectionToken}`);
    expect(await upgradeStatus(t, `id=${connectionToken}`)).toBe(409);
    expect((await fetch(`${t.url}?id=${connectionToken}`, { method: 'POST', body: handshake })).status).toBe(405);
    first.socket.close();
  });

  it('makes the connection itself for a client that skipped negotiation', async () => {
    const { userId } = await t.newUser();
    const { socket, next } = await rawSocket(t, `access_token=${t.signedHubToken(userId, 60_000)}`);
    socket.send(handshake);
    expect(await next()).toBe(`{}${RS}`);
    socket.send(`{"type":1,"invocationId":"0","target":"${hubMethods.getCloudIdleStatus.name}","arguments":[]}${RS}`);
    expect(JSON.parse((await next()).slice(0, -1))).toEqual({ type: 3, invocationId: '0', result: null });
    socket.close();
  });
});

describe('the JSON hub protocol over a raw WebSocket', () => {
  let t: HubApp;
  beforeAll(async () => (t = await startHubApp({ HUB_KEEP_ALIVE_MS: '150', HUB_TIMEOUT_MS: '800' })));
  afterAll(() => t.close());

  async function connected() {
    const { userId, accessToken } = await t.newUser();
    const { connectionToken } = await negotiate(t, 1);
    return { userId, raw: await rawSocket(t, `id=${connectionToken}&access_token=${await t.hubToken(accessToken)}`) };
  }

  it('splits frames on the record separator and keeps partial messages for the next frame', async () => {
    const { raw } = await connected();
    const invoke = (id: string) => `{"type":1,"invocationId":"${id}","target":"${hubMethods.getCloudIdleStatus.name}","arguments":[]}${RS}`;
    // The handshake in two frames, the first invocation cut mid-word, two messages in one frame.
    raw.socket.send(handshake.slice(0, 10));
    raw.socket.send(handshake.slice(10) + invoke('1').slice(0, 25));
    raw.socket.send(invoke('1').slice(25) + invoke('2') + '{"type":6}' + RS);
    expect(await raw.next()).toBe(`{}${RS}`);
    const answers = [await raw.next(), await raw.next()].filter((frame) => !frame.startsWith('{"type":6}'));
    const completions = (answers.length === 2 ? answers : [...answers, await raw.next()]).map((frame) => JSON.parse(frame.slice(0, -1)));
    expect(completions).toEqual([
      { type: 3, invocationId: '1', result: null },
      { type: 3, invocationId: '2', result: null },
    ]);
    // Every frame the server sent holds whole messages only.
    for (const frame of raw.frames) expect(frame.endsWith(RS)).toBe(true);
    raw.socket.close();
  });

  it('ignores unknown message types and answers a bad handshake with an error', async () => {
    const { raw } = await connected();
    raw.socket.send(
      handshake + `{"type":99,"whatever":true}${RS}{"type":1,"invocationId":"7","target":"${hubMethods.getCloudIdleStatus.name}","arguments":[]}${RS}`,
    );
    expect(await raw.next()).toBe(`{}${RS}`);
    expect(JSON.parse((await raw.next()).slice(0, -1))).toMatchObject({ type: 3, invocationId: '7' });
    raw.socket.close();

    const bad = await connected();
    bad.raw.socket.send(`{"protocol":"messagepack","version":1}${RS}`);
    expect(await bad.raw.next()).toBe(`{"error":"The protocol 'messagepack' is not supported."}${RS}`);
    expect(await bad.raw.closed).toBe(1000);
  });

  it('closes with an error on malformed messages', async () => {
    const { raw } = await connected();
    raw.socket.send(handshake + `{"type":1,"target":""}${RS}`);
    expect(await raw.next()).toBe(`{}${RS}`);
    expect(JSON.parse((await raw.next()).slice(0, -1))).toEqual({
      type: 7,
      error: 'Connection closed with an error. InvalidDataException: A message of type 1 is malformed.',
    });
    expect(await raw.closed).toBe(1000);
  });

  it('pings a quiet connection and drops one that stays silent past the timeout', async () => {
    const { raw } = await connected();
    raw.socket.send(handshake);
    expect(await raw.next()).toBe(`{}${RS}`);
    const started = Date.now();
    expect(await raw.next()).toBe(`{"type":6}${RS}`);
    expect(Date.now() - started).toBeLessThan(600);
    // The client never answers: it is dropped without a Close message, so a real client would reconnect.
    expect(await raw.closed).toBe(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(raw.frames.every((frame) => frame === `{}${RS}` || frame === `{"type":6}${RS}`)).toBe(true);
  });

  it('keeps a client that pings', async () => {
    const { userId, raw } = await connected();
    raw.socket.send(handshake);
    expect(await raw.next()).toBe(`{}${RS}`);
    const pinging = setInterval(() => raw.socket.send(`{"type":6}${RS}`), 200);
    // A silent client that finished its handshake later: once it is dropped, the pinging one's timeout would have passed too.
    const silent = await connected();
    silent.raw.socket.send(handshake);
    expect(await silent.raw.next()).toBe(`{}${RS}`);
    await silent.raw.closed;
    clearInterval(pinging);
    expect(raw.socket.readyState).toBe(WebSocket.OPEN);
    await t.app.hub.toUser(userId, testEvent('Still'), ['here']);
    await expect.poll(() => raw.frames.includes(`{"type":1,"target":"Still","arguments":["here"]}${RS}`)).toBe(true);
    raw.socket.close();
  });

  it('ends the connection when the client sends Close', async () => {
    const { raw } = await connected();
    raw.socket.send(handshake + `{"type":7}${RS}`);
    expect(await raw.closed).toBe(1000);
  });
});

describe('Server-Sent Events and long polling on the wire', () => {
  let t: HubApp;
  beforeAll(async () => (t = await startHubApp({ HUB_LONG_POLL_MS: '300' })));
  afterAll(() => t.close());

  it('streams events unbuffered with the headers .NET sends', async () => {
    const { accessToken } = await t.newUser();
    const { connectionToken } = await negotiate(t, 1);
    const controller = new AbortController();
    const response = await fetch(`${t.url}?id=${connectionToken}&access_token=${await t.hubToken(accessToken)}`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-store');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(':\r\n');
    expect(
      (await fetch(`${t.url}?id=${connectionToken}`, { method: 'POST', body: handshake, headers: { 'content-type': 'text/plain;charset=UTF-8' } })).status,
    ).toBe(200);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(`data: {}${RS}\r\n\r\n`);
    // A second stream for the same connection is refused.
    expect((await fetch(`${t.url}?id=${connectionToken}`, { headers: { accept: 'text/event-stream' } })).status).toBe(409);
    controller.abort();
  });

  it('answers the first poll at once, later polls with data or empty on timeout, and 204 once ended', async () => {
    const { userId, accessToken } = await t.newUser();
    const { connectionToken } = await negotiate(t, 1);
    const poll = () => fetch(`${t.url}?id=${connectionToken}&_=${Date.now()}`, { headers: { authorization: `Bearer ${hubToken}` } });
    const hubToken = await t.hubToken(accessToken);
    /** Whether a poll of the connection is waiting at the server. */
    const pollWaiting = () => {
      const transport = t.app.hub.find(connectionToken!)?.transport;
      return transport instanceof LongPollingTransport && transport.waiting;
    };
    /** Until the poll just sent waits at the server; checked often, as it waits only HUB_LONG_POLL_MS before it is answered empty. */
    const parked = () => expect.poll(pollWaiting, { interval: 5, timeout: 5_000 }).toBe(true);

    const first = await poll();
    expect([first.status, await first.text()]).toEqual([200, '']);
    await fetch(`${t.url}?id=${connectionToken}`, { method: 'POST', body: handshake });
    const answered = await poll();
    expect([answered.status, await answered.text()]).toEqual([200, `{}${RS}`]);

    const started = Date.now();
    const empty = await poll();
    expect([empty.status, await empty.text()]).toEqual([200, '']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);

    const waiting = poll();
    await parked();
    await t.app.hub.toUser(userId, testEvent('Hello'), [1]);
    expect(await (await waiting).text()).toBe(`{"type":1,"target":"Hello","arguments":[1]}${RS}`);

    const pending = poll();
    await parked();
    expect((await fetch(`${t.url}?id=${connectionToken}`, { method: 'DELETE' })).status).toBe(202);
    expect((await pending).status).toBe(204);
    expect((await poll()).status).toBe(404);
  });
});

describe('CORS for a site on another origin', () => {
  let t: HubApp;
  beforeAll(async () => (t = await startHubApp({ CORS_ORIGINS: 'https://site.example' })));
  afterAll(() => t.close());

  it('lets the configured origin negotiate with credentials and the client’s own headers', async () => {
    const preflight = await fetch(`${t.url}/negotiate?negotiateVersion=1`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://site.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,x-requested-with,x-signalr-user-agent',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/x-requested-with.*x-signalr-user-agent/);

    const other = await fetch(`${t.url}/negotiate?negotiateVersion=1`, { method: 'POST', headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
