/**
 * A listening app for the realtime tests (the hub needs real sockets, not
 * inject), users logged in through the real API, and the official
 * @microsoft/signalr client pointed at it.
 */
import * as z from 'zod/mini';
import { HubConnectionBuilder, LogLevel, type HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { identity } from '#contract/identity.ts';
import { hubPath } from '#contract/realtime.ts';
import { signToken } from '../../../server/crypto/signed.ts';
import type { BuildOptions } from '../../../server/app.ts';
import { startApp, type TestApp } from '../api/harness.ts';

export interface HubApp extends TestApp {
  port: number;
  /** The hub's URL. */
  url: string;
  /** A new user, logged in: its id and access token. */
  newUser(): Promise<{ userId: number; accessToken: string }>;
  /** A hub token through `GET /signalr/auth`, as the site gets one. */
  hubToken(accessToken: string): Promise<string>;
  /** A hub token signed here, e.g. already expired. */
  signedHubToken(userId: number, expiresInMs: number): string;
}

let userSeq = 0;

export async function startHubApp(env: Record<string, string> = {}, port = 0, options: BuildOptions = {}): Promise<HubApp> {
  const t = await startApp(env, options);
  await t.app.listen({ port, host: '127.0.0.1' });
  const listening = (t.app.server.address() as { port: number }).port;
  return {
    ...t,
    port: listening,
    url: `http://127.0.0.1:${listening}/api${hubPath}`,
    async newUser() {
      const phone = `1390000${String(process.pid % 100).padStart(2, '0')}${String(++userSeq).padStart(2, '0')}`;
      // Through the real SMS login, so the access token is a real one.
      await t.call(identity.sendSmsCode, { body: { Phone: phone } });
      const code = /\d{6}/.exec((await t.app.inject({ url: `/api/dev/outbox?to=${phone}` })).json().data.at(-1).text)![0];
      const login = await t.call(identity.loginOrRegister, { body: { Phone: phone, Code: code, DeviceId: 'realtime-test-device' } });
      return { userId: login.body.data.User.Id, accessToken: login.body.data.AccessToken };
    },
    async hubToken(accessToken) {
      return (await t.call(identity.hubToken, { token: accessToken })).body.data!.AccessToken;
    },
    signedHubToken(userId, expiresInMs) {
      return signToken(t.app.keys.secret, 'hub', { sub: userId, exp: Date.now() + expiresInMs });
    },
  };
}

/** An event outside the contract, for pushing test payloads of any shape. */
export const testEvent = (name: string) => ({ name, arguments: z.tuple([z.unknown()], z.unknown()) });

/** The official client, forced onto one transport. */
export function hubClient(url: string, transport: HttpTransportType, token: () => string | Promise<string>, reconnect?: number[]): HubConnection {
  const builder = new HubConnectionBuilder().withUrl(url, { transport, accessTokenFactory: token }).configureLogging(LogLevel.None);
  return (reconnect ? builder.withAutomaticReconnect(reconnect) : builder).build();
}

/** Resolves with the arguments of the next call of `target` on `connection`. */
export function nextCall(connection: HubConnection, target: string): Promise<unknown[]> {
  return new Promise((resolve) => {
    const handler = (...args: unknown[]) => {
      connection.off(target, handler);
      resolve(args);
    };
    connection.on(target, handler);
  });
}
