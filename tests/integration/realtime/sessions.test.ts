/**
 * Hub connections belong to the login session their hub token was issued to:
 * signing out ends them at once — and the hub tokens that session still holds
 * no longer connect — and hub tokens never reach the request log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { identity } from '#contract/identity.ts';
import { hubPath, unauthorizedCloseError } from '#contract/realtime.ts';
import { startHubApp, type HubApp } from './harness.ts';

const RS = '\x1e';

/** A raw WebSocket that has finished its handshake: the messages it receives, and its close. */
async function connected(t: HubApp, hubToken: string) {
  const { connectionToken } = await (await fetch(`${t.url}/negotiate?negotiateVersion=1`, { method: 'POST' })).json();
  const socket = new WebSocket(`ws://127.0.0.1:${t.port}/api${hubPath}?id=${connectionToken}&access_token=${hubToken}`);
  const messages: unknown[] = [];
  socket.on('message', (data) =>
    messages.push(
      ...String(data)
        .split(RS)
        .filter(Boolean)
        .map((text) => JSON.parse(text)),
    ),
  );
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(`{"protocol":"json","version":1}${RS}`);
  await expect.poll(() => messages).toContainEqual({});
  return { socket, messages, closed };
}

describe('sessions that end', () => {
  let t: HubApp;
  const lines: string[] = [];
  beforeAll(async () => (t = await startHubApp({ LOG_LEVEL: 'trace' }, 0, { logStream: { write: (line) => void lines.push(line) } })));
  afterAll(() => t.close());

  it('close the session’s hub connections at once on sign-out, and refuse its remaining hub tokens', async () => {
    const user = await t.newUser();
    const hubToken = await t.hubToken(user.accessToken);
    const first = await connected(t, hubToken);
    const second = await connected(t, hubToken);

    expect((await t.call(identity.logout, { token: user.accessToken })).body.code).toBe(200);
    await Promise.all([first.closed, second.closed]);
    for (const connection of [first, second]) expect(connection.messages).toContainEqual({ type: 7, error: unauthorizedCloseError });

    const again = await connected(t, hubToken);
    await again.closed;
    expect(again.messages).toContainEqual({ type: 7, error: unauthorizedCloseError });
  });

  it('leave other sessions’ connections alone', async () => {
    const mine = await t.newUser();
    const theirs = await t.newUser();
    const myConnection = await connected(t, await t.hubToken(mine.accessToken));
    const theirConnection = await connected(t, await t.hubToken(theirs.accessToken));
    await t.call(identity.logout, { token: mine.accessToken });
    // The hub ends a sign-out's connections in one pass over all of them: once mine has its Close, that pass is over.
    await myConnection.closed;
    expect(myConnection.messages).toContainEqual({ type: 7, error: unauthorizedCloseError });
    // An answer on the same socket comes after anything the hub sent it before, and only from a connection it still serves.
    theirConnection.socket.send(`{"type":1,"invocationId":"1","target":"NoSuchMethod","arguments":[]}${RS}`);
    await expect.poll(() => theirConnection.messages).toContainEqual({ type: 3, invocationId: '1', error: "Unknown hub method 'NoSuchMethod'" });
    expect(theirConnection.socket.readyState).toBe(WebSocket.OPEN);
    theirConnection.socket.close();
  });

  it('never write a hub token to the log, at any level', async () => {
    const user = await t.newUser();
    const hubToken = await t.hubToken(user.accessToken);
    const connection = await connected(t, hubToken);
    connection.socket.close();
    await connection.closed;
    const log = lines.join('');
    expect(log).toContain('access_token=[hidden]');
    expect(log).not.toContain(hubToken);
  });
});
