/**
 * A listening app for the realtime tests (the hub needs real sockets, not
 * inject), users logged in through the real API, the official
 * @microsoft/signalr client pointed at it, and the raw wire below it.
 */
import * as z from 'zod/mini';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import WebSocket from 'ws';
import { identity } from '#contract/identity.ts';
import { hubPath, statefulReconnect } from '#contract/realtime.ts';
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
      const sent = await t.call(identity.sendSmsCode, { body: { Phone: phone } });
      if (sent.status !== 200) throw new Error(`the code for ${phone} was not sent: ${sent.status} ${sent.body.message}`);
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

/** The official client with stateful reconnect, its buffer as large as the site's; the library uses it over WebSockets only. */
export function statefulHubClient(url: string, token: () => string | Promise<string>, transport = HttpTransportType.WebSockets): HubConnection {
  return new HubConnectionBuilder()
    .withUrl(url, { transport, accessTokenFactory: token })
    .withStatefulReconnect({ bufferSize: statefulReconnect.bufferBytes })
    .configureLogging(LogLevel.None)
    .build();
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

/** The record separator that ends every hub message. */
export const RS = '\x1e';

export interface RawSocket {
  socket: WebSocket;
  /** Every text frame received, in order. */
  frames: string[];
  /** The close code. */
  closed: Promise<number>;
  /** The next frame not yet read. */
  next: () => Promise<string>;
  /** Resolves once the server has answered a WebSocket ping: whatever it sent before then has arrived. */
  drained: () => Promise<void>;
}

/** A raw WebSocket on the hub. */
export async function rawSocket(t: HubApp, query: string): Promise<RawSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${t.port}/api${hubPath}?${query}`);
  const frames: string[] = [];
  const waiting: Array<(frame: string) => void> = [];
  socket.on('message', (data) => {
    const frame = data.toString();
    frames.push(frame);
    waiting.shift()?.(frame);
  });
  const closed = new Promise<number>((resolve) => socket.on('close', resolve));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let read = 0;
  const next = () =>
    read < frames.length ? Promise.resolve(frames[read++]) : new Promise<string>((resolve) => waiting.push((frame) => (read++, resolve(frame))));
  const drained = () =>
    new Promise<void>((resolve) => {
      socket.once('pong', () => resolve());
      socket.ping();
    });
  return { socket, frames, closed, next, drained };
}

export interface NegotiateAnswer {
  connectionId: string;
  connectionToken?: string;
  negotiateVersion?: number;
  availableTransports: unknown[];
  useStatefulReconnect?: boolean;
}

/** Negotiates as a client does: with `negotiateVersion` when a version is given, asking for stateful reconnect when told to. */
export async function negotiate(t: HubApp, version?: number, { statefulReconnect = false } = {}): Promise<NegotiateAnswer> {
  const query = new URLSearchParams();
  if (version !== undefined) query.set('negotiateVersion', String(version));
  if (statefulReconnect) query.set('useStatefulReconnect', 'true');
  const response = await fetch(`${t.url}/negotiate${query.size ? `?${query}` : ''}`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`negotiate answered ${response.status}`);
  return response.json();
}

/** The HTTP status a WebSocket upgrade is refused with. */
export function upgradeStatus(t: HubApp, query: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${t.port}/api${hubPath}?${query}`);
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('open', () => reject(new Error('the upgrade was accepted')));
    socket.on('error', () => {});
  });
}
