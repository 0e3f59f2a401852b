/**
 * Closing an instance behind a proxy (docs/deploy.md): it stops taking
 * connections before the hub tells its clients to reconnect, so a client that
 * reconnects at once is refused at the door — and a proxy sends it to another
 * instance — instead of landing on the instance that is going away; and what
 * it had accepted is answered before the database closes.
 */
import { HttpTransportType, HubConnectionState } from '@microsoft/signalr';
import { expect, it } from 'vitest';
import { hubClient, startHubApp } from './harness.ts';

it('stops listening before the hub ends its connections, and closes once its clients have gone', async () => {
  const t = await startHubApp();
  const me = await t.newUser();
  const token = await t.hubToken(me.accessToken);
  const client = hubClient(t.url, HttpTransportType.WebSockets, () => token, [0]);
  await client.start();
  const gone = new Promise<void>((resolve) => client.onclose(() => resolve()));

  // What the instance was doing when the hub was told to close: still listening, or not any more.
  const hub = t.app.hub;
  const closeHub = hub.close.bind(hub);
  let listeningWhenHubClosed: boolean | undefined;
  hub.close = () => {
    listeningWhenHubClosed = t.app.server.listening;
    return closeHub();
  };

  await t.close();
  expect(listeningWhenHubClosed).toBe(false);
  // Its one retry was refused: the client has nowhere here to reconnect to.
  await gone;
  expect(client.state).toBe(HubConnectionState.Disconnected);
});
