/**
 * Stateful reconnect over WebSockets: negotiate
 * offers it when asked; when a socket drops, the client's next one takes over the same connection
 * and what either side had not acknowledged is replayed — nothing lost, nothing twice; messages
 * wait while the unacknowledged ones are over the buffer's limit; and only the connection's own
 * client, within the window, may take it over.
 */
import { HttpTransportType, HubConnectionState } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hubMethods, hubTiming, statefulReconnect } from '#contract/realtime.ts';
import { negotiate, nextCall, rawSocket, RS, startHubApp, statefulHubClient, testEvent, upgradeStatus, type HubApp } from './harness.ts';

const handshake = (version: number) => `{"protocol":"json","version":${version}}${RS}`;
const parsed = (frame: string): unknown => JSON.parse(frame.slice(0, -1));
const invoke = (invocationId: string) => `{"type":1,"invocationId":"${invocationId}","target":"${hubMethods.getCloudIdleStatus.name}","arguments":[]}${RS}`;
const completion = (invocationId: string) => ({ type: 3, invocationId, result: null });
const count = (n: number) => ({ type: 1, target: 'Count', arguments: [n] });

let t: HubApp;
beforeAll(async () => (t = await startHubApp()));
afterAll(() => t.close());

/** A new user's raw socket on a connection negotiated with stateful reconnect, past a handshake of `version`. */
async function socketOnNewConnection(version = 2) {
  const { userId, accessToken } = await t.newUser();
  const { connectionToken } = await negotiate(t, 1, { statefulReconnect: true });
  const query = `id=${connectionToken}&access_token=${await t.hubToken(accessToken)}`;
  const raw = await rawSocket(t, query);
  raw.socket.send(handshake(version));
  expect(await raw.next()).toBe(`{}${RS}`);
  return { userId, token: connectionToken!, query, raw };
}

/** Until the hub holds `token`'s connection without a transport: its socket dropped, and it waits for the next one. */
const dropped = (token: string) => expect.poll(() => t.app.hub.find(token)?.transport).toBeNull();

describe('negotiate', () => {
  it('offers stateful reconnect when the client asks for it, and only then', async () => {
    for (const version of [1, 0]) {
      expect(await negotiate(t, version, { statefulReconnect: true })).toMatchObject({ useStatefulReconnect: true });
      expect(await negotiate(t, version)).not.toHaveProperty('useStatefulReconnect');
    }
  });
});

describe('the official client with stateful reconnect', () => {
  it('gets every push once and in order across a socket the server drops mid-stream, and its call made meanwhile answered', async () => {
    const me = await t.newUser();
    const connection = statefulHubClient(t.url, () => t.hubToken(me.accessToken));
    const counted: unknown[] = [];
    connection.on('Count', (n) => counted.push(n));
    let reconnecting = false;
    connection.onreconnecting(() => (reconnecting = true));
    await connection.start();
    const { connectionId } = connection;
    const push = (from: number, to: number) => {
      // A local push is delivered before toUser returns: these go out one after another, before anything else runs.
      for (let n = from; n <= to; n++) void t.app.hub.toUser(me.userId, testEvent('Count'), [n]);
    };
    try {
      push(1, 50);
      // While those are on their way, the server cuts the socket (the only one open) without a close frame, as a network
      // drop would; more pushes follow before the client can have noticed, let alone come back.
      for (const socket of t.app.websocketServer.clients) socket.terminate();
      push(51, 100);
      const answer = connection.invoke(hubMethods.getCloudIdleStatus.name);
      await expect.poll(() => counted.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(100);
      push(101, 150);
      await expect.poll(() => counted.length).toBeGreaterThanOrEqual(150);
      expect(counted).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
      expect(await answer).toBeNull();
      // The same connection throughout: never given up and made afresh.
      expect(connection.connectionId).toBe(connectionId);
      expect(reconnecting).toBe(false);
      expect(connection.state).toBe(HubConnectionState.Connected);
    } finally {
      await connection.stop();
    }
  });

  it.each([
    ['ServerSentEvents', HttpTransportType.ServerSentEvents],
    ['LongPolling', HttpTransportType.LongPolling],
  ])('connects as before over %s, where neither side uses it', async (_, transport) => {
    const me = await t.newUser();
    const connection = statefulHubClient(t.url, () => t.hubToken(me.accessToken), transport);
    await connection.start();
    try {
      const heard = nextCall(connection, 'Notice');
      await t.app.hub.toUser(me.userId, testEvent('Notice'), ['plain']);
      expect(await heard).toEqual(['plain']);
      expect(await connection.invoke(hubMethods.getCloudIdleStatus.name)).toBeNull();
    } finally {
      await connection.stop();
    }
  });
});

describe('on the wire', () => {
  it('holds messages once the unacknowledged ones pass 100,000 bytes, and sends them as acks make room', async () => {
    const { userId, raw } = await socketOnNewConnection();
    const payload = 'x'.repeat(10_000);
    for (let n = 1; n <= 12; n++) await t.app.hub.toUser(userId, testEvent('Big'), [n, payload]);
    await raw.drained();
    const pushes = () => raw.frames.filter((frame) => frame.startsWith('{"type":1,'));
    const bytes = (frames: string[]) => frames.reduce((sum, frame) => sum + Buffer.byteLength(frame), 0);
    // As .NET's buffer does: sending stops once the unacknowledged messages are over the limit, the one that crossed it included.
    const sent = pushes();
    expect(sent.length).toBeLessThan(12);
    expect(bytes(sent)).toBeGreaterThan(statefulReconnect.bufferBytes);
    expect(bytes(sent.slice(0, -1))).toBeLessThanOrEqual(statefulReconnect.bufferBytes);

    // The client has the first five: their room goes to the messages that waited, in order.
    raw.socket.send(`{"type":8,"sequenceId":5}${RS}`);
    await expect.poll(() => pushes().length).toBe(12);
    expect(pushes().map((frame) => (parsed(frame) as { arguments: [number] }).arguments[0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    raw.socket.close();
  });

  it('acknowledges what came a second later, and on the next socket replays only what the client has not acknowledged', async () => {
    const { userId, token, query, raw } = await socketOnNewConnection();
    for (const n of [1, 2, 3]) await t.app.hub.toUser(userId, testEvent('Count'), [n]);
    const invokedAt = Date.now();
    raw.socket.send(invoke('0') + invoke('1'));
    // The server's counted messages 1 to 5.
    const received = [];
    for (let n = 0; n < 5; n++) received.push(parsed(await raw.next()));
    expect(received).toEqual([count(1), count(2), count(3), completion('0'), completion('1')]);
    // The client's two invocations, acknowledged together after the delay (timers may fire a millisecond or two early).
    expect(parsed(await raw.next())).toEqual({ type: 8, sequenceId: 2 });
    expect(Date.now() - invokedAt).toBeGreaterThanOrEqual(statefulReconnect.ackDelayMs - 10);

    // The client acknowledges the first two pushes; once the server has read that, the network drops.
    raw.socket.send(`{"type":8,"sequenceId":2}${RS}`);
    await raw.drained();
    raw.socket.terminate();
    await dropped(token);
    await t.app.hub.toUser(userId, testEvent('Count'), [4]);

    const next = await rawSocket(t, query);
    // No handshake: first the Sequence of the oldest message not acknowledged, then every message from there on.
    const replayed = [];
    for (let n = 0; n < 5; n++) replayed.push(parsed(await next.next()));
    expect(replayed).toEqual([{ type: 9, sequenceId: 3 }, count(3), completion('0'), completion('1'), count(4)]);

    // Before its Sequence the client is not heard ('8'). It says it resumes at its message 2, as if the ack of it had been
    // lost: that one ('1' again) is a duplicate and skipped; the next ('2') is new. Then the server acknowledges again.
    next.socket.send(invoke('8') + `{"type":9,"sequenceId":2}${RS}` + invoke('1') + invoke('2'));
    expect(parsed(await next.next())).toEqual(completion('2'));
    expect(parsed(await next.next())).toEqual({ type: 8, sequenceId: 3 });
    next.socket.close();
  });

  it('lets nobody else take a connection over, nor anyone once the client has closed it', async () => {
    expect(await upgradeStatus(t, 'id=unknown')).toBe(404);
    const { token, query, raw } = await socketOnNewConnection();
    const stranger = await t.newUser();
    expect(await upgradeStatus(t, `id=${token}&access_token=${await t.hubToken(stranger.accessToken)}`)).toBe(403);
    expect(await upgradeStatus(t, `id=${token}`)).toBe(403);
    // A close frame is a goodbye: the connection ends.
    raw.socket.close();
    await expect.poll(() => t.app.hub.find(token)).toBeUndefined();
    expect(await upgradeStatus(t, query)).toBe(404);
  });

  it('keeps a dropped connection for its client only as long as the window', async () => {
    const { token, query, raw } = await socketOnNewConnection();
    raw.socket.terminate();
    await dropped(token);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + hubTiming.disconnectMs + 1_000);
      await expect.poll(() => t.app.hub.find(token), { timeout: 5_000 }).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    expect(await upgradeStatus(t, query)).toBe(404);
  });

  it('is not in effect after a version 1 handshake: a second socket is refused and a dropped one ends the connection', async () => {
    const { token, query, raw } = await socketOnNewConnection(1);
    expect(await upgradeStatus(t, query)).toBe(409);
    raw.socket.terminate();
    await expect.poll(() => t.app.hub.find(token)).toBeUndefined();
    expect(await upgradeStatus(t, query)).toBe(404);
  });
});
