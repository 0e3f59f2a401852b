/**
 * The official @microsoft/signalr client against the hub, forced onto each
 * transport in turn: everything a page does with it must work on all three.
 */
import { HttpTransportType, HubConnectionState } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubEvents, hubMethods, unauthorizedCloseError } from '#contract/realtime.ts';
import { setCloudIdleStatus } from '../../../server/modules/cloud-idle/status.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { hubClient, nextCall, startHubApp, type HubApp, testEvent } from './harness.ts';

const transports = [
  ['WebSockets', HttpTransportType.WebSockets],
  ['ServerSentEvents', HttpTransportType.ServerSentEvents],
  ['LongPolling', HttpTransportType.LongPolling],
] as const;

let t: HubApp;
beforeAll(async () => {
  t = await startHubApp();
});
afterAll(() => t.close());

describe.each(transports)('over %s', (_, transport) => {
  it('connects through negotiate and the handshake, and stops cleanly', async () => {
    const { accessToken } = await t.newUser();
    const connection = hubClient(t.url, transport, () => t.hubToken(accessToken));
    await connection.start();
    expect(connection.state).toBe(HubConnectionState.Connected);
    expect(connection.connectionId).toMatch(/^[\w-]{22}$/);
    await connection.stop();
    expect(connection.state).toBe(HubConnectionState.Disconnected);
  });

  it('receives pushes for its user, in every tab, and broadcasts — not pushes for others', async () => {
    const me = await t.newUser();
    const other = await t.newUser();
    const tabs = [hubClient(t.url, transport, () => t.hubToken(me.accessToken)), hubClient(t.url, transport, () => t.hubToken(me.accessToken))];
    const stranger = hubClient(t.url, transport, () => t.hubToken(other.accessToken));
    await Promise.all([...tabs, stranger].map((c) => c.start()));
    try {
      const strangerGot: unknown[] = [];
      stranger.on(hubEvents.cloudIdleStatus.name, (status) => strangerGot.push(status));

      const status = await setCloudIdleStatus(t.app.db, shellActor('ops@shop', null), t.app.hub, me.userId, {
        State: 'Idling',
        Games: [{ AppId: 730, Name: 'Counter-Strike 2', CardsRemaining: 3 }],
        CardsRemaining: 7,
      });
      const received = await Promise.all(tabs.map((c) => nextCall(c, hubEvents.cloudIdleStatus.name)));
      expect(received).toEqual([[status], [status]]);

      const everyone = [...tabs, stranger].map((c) => nextCall(c, 'Notice'));
      await t.app.hub.broadcast(testEvent('Notice'), ['maintenance at 02:00', 2]);
      expect(await Promise.all(everyone)).toEqual([
        ['maintenance at 02:00', 2],
        ['maintenance at 02:00', 2],
        ['maintenance at 02:00', 2],
      ]);
      expect(strangerGot).toEqual([]);
    } finally {
      await Promise.all([...tabs, stranger].map((c) => c.stop()));
    }
  });

  it('invokes hub methods and gets their completions, errors included', async () => {
    const me = await t.newUser();
    const connection = hubClient(t.url, transport, () => t.hubToken(me.accessToken));
    await connection.start();
    try {
      expect(await connection.invoke(hubMethods.getCloudIdleStatus.name)).toBeNull();
      const status = await setCloudIdleStatus(t.app.db, shellActor('ops@shop', null), null, me.userId, { State: 'Paused', Games: [], CardsRemaining: 4 });
      // Method names match whatever their case, as in .NET.
      expect(await connection.invoke('getcloudidlestatus')).toEqual(status);
      await expect(connection.invoke('NoSuchMethod')).rejects.toThrow("Unknown hub method 'NoSuchMethod'");
      await expect(connection.invoke(hubMethods.getCloudIdleStatus.name, 'extra')).rejects.toThrow(
        `Failed to invoke '${hubMethods.getCloudIdleStatus.name}': the arguments do not match`,
      );
      const streamed = new Promise((resolve) =>
        connection
          .stream(hubMethods.getCloudIdleStatus.name)
          .subscribe({ next: () => {}, complete: () => resolve('completed'), error: (error) => resolve(String(error)) }),
      );
      expect(await streamed).toContain('non-streaming');
      // A fire-and-forget send gets no answer, and the connection carries on.
      await connection.send(hubMethods.getCloudIdleStatus.name);
      expect(await connection.invoke(hubMethods.getCloudIdleStatus.name)).toEqual(status);
    } finally {
      await connection.stop();
    }
  });

  it('lets a page without a login listen to broadcasts, and nothing else', async () => {
    const me = await t.newUser();
    const listener = hubClient(t.url, transport, () => '');
    await listener.start();
    try {
      expect(listener.state).toBe(HubConnectionState.Connected);
      const got: unknown[] = [];
      listener.on(hubEvents.cloudIdleStatus.name, (status) => got.push(status));
      await setCloudIdleStatus(t.app.db, shellActor('ops@shop', null), t.app.hub, me.userId, { State: 'Paused', Games: [], CardsRemaining: 1 });
      const heard = nextCall(listener, 'Notice');
      await t.app.hub.broadcast(testEvent('Notice'), ['status changed', 1]);
      expect(await heard).toEqual(['status changed', 1]);
      // Every method is about its caller: a listener has none.
      await expect(listener.invoke(hubMethods.getCloudIdleStatus.name)).rejects.toThrow(
        `Failed to invoke '${hubMethods.getCloudIdleStatus.name}': Unauthorized`,
      );
      expect(got).toEqual([]);
      expect(listener.state).toBe(HubConnectionState.Connected);
    } finally {
      await listener.stop();
    }
  });

  for (const [problem, token] of [
    ['invalid', async () => 'not-a-token'],
    ['expired', async () => t.signedHubToken((await t.newUser()).userId, -1_000)],
  ] as const) {
    it(`closes a connection with a ${problem} hub token as Unauthorized, and the client does not reconnect`, async () => {
      const hubToken = await token();
      const connection = hubClient(t.url, transport, () => hubToken, [0, 10, 10]);
      let reconnecting = false;
      connection.onreconnecting(() => (reconnecting = true));
      const closed = new Promise<Error | undefined>((resolve) => connection.onclose(resolve));
      // The Close may share a frame with the handshake answer (start rejects) or follow it (onclose).
      const error = await connection.start().then(
        () => closed,
        (failure: Error) => failure,
      );
      expect(error?.message).toBe(`Server returned an error on close: ${unauthorizedCloseError}`);
      // Already final (the client's HubConnection.js): it reconnects only when its transport closes while Connected, and
      // then calls onreconnecting before any onclose; start() rejects only after its transport has closed; and only
      // another start() leaves Disconnected.
      expect(reconnecting).toBe(false);
      expect(connection.state).toBe(HubConnectionState.Disconnected);
    });
  }
});
