/**
 * The realtime connection of spec §4, §8 and §9 over the official
 * @microsoft/signalr client: one connection per access token, reused while the
 * token stays and rebuilt when it changes; start refused unless Disconnected,
 * sends refused unless Connected; reconnects after 0, 2, 10 and 30 s, then
 * stops; the hub token cached 10 minutes and fetched again once when the hub
 * refuses it; every failure turned into one of the §8 messages. No DOM and no
 * app state here, so tests drive it in Node against the real hub.
 */
import { HubConnectionBuilder, HubConnectionState, LogLevel, type HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { atom } from 'nanostores';
import { lifetimes, type identity } from '../../../contract/identity.ts';
import type { ResponseOf } from '../../../contract/api.ts';
import { hubTiming, unauthorizedCloseError } from '../../../contract/realtime.ts';
import { ApiFailure } from '../api/errors.ts';

export type HubState = `${HubConnectionState}`;

/** A §8 message: its dictionary key, and what it shows besides. */
export interface HubProblem {
  key: 'realtime.tokenExpired' | 'realtime.tokenFetchFailed' | 'realtime.noToken' | 'realtime.error';
  /** 401 for the expired token (spec §8). */
  code?: number;
  /** The server's own message, shown instead of the key's text. */
  serverMessage?: string;
  /** The `{{error}}` of the generic message. */
  error?: string;
}

export interface HubClientOptions {
  /** The hub, e.g. `/api/signalr/message`. */
  url: string;
  /** `GET /signalr/auth` for this access token. */
  fetchHubToken: (accessToken: string) => Promise<ResponseOf<typeof identity.hubToken>>;
  /** Only for tests, which force each transport in turn. */
  transport?: HttpTransportType;
  /** Spec §5: boolean or undefined — the client library refuses anything else. */
  withCredentials?: boolean;
  now?: () => number;
}

type Handler = (...args: any[]) => void;

const isUnauthorized = (error: Error) => error.message.includes(unauthorizedCloseError);

function problemOf(error: Error): HubProblem {
  if (isUnauthorized(error)) return { key: 'realtime.tokenExpired', code: 401 };
  return { key: 'realtime.error', error: error.message };
}

export function createHubClient(options: HubClientOptions) {
  const now = options.now ?? Date.now;
  const $state = atom<HubState>(HubConnectionState.Disconnected);
  const $problem = atom<HubProblem | null>(null);
  const handlers = new Map<string, Set<Handler>>();
  let accessToken: string | null = null;
  /** The connection for `accessToken`, once one was asked for. */
  let current: HubConnection | null = null;
  /** Whether the page wants to be connected (so a new token connects again). */
  let wanted = false;
  let cached: { hubToken: string; fetchedAt: number } | null = null;
  /** The hub token fetched because the hub refused the one before: if the hub refuses it too, that is final. */
  let refetched: string | null = null;
  let refetching = false;
  /** Why the last hub token could not be had; the library only reports a failed negotiation. */
  let tokenProblem: HubProblem | null = null;

  async function hubToken(): Promise<string> {
    if (cached && now() - cached.fetchedAt < lifetimes.hubTokenMs) return cached.hubToken;
    const forToken = accessToken;
    let answer;
    try {
      if (!forToken) throw new Error('no access token');
      answer = await options.fetchHubToken(forToken);
    } catch (error) {
      tokenProblem = { key: 'realtime.tokenFetchFailed', serverMessage: error instanceof ApiFailure ? error.serverMessage : undefined };
      throw error;
    }
    if (!answer.isSuccess) tokenProblem = { key: 'realtime.tokenFetchFailed', serverMessage: answer.message || undefined };
    else if (!answer.data?.AccessToken) tokenProblem = { key: 'realtime.noToken' };
    // The library wraps this in its negotiation error; `connect` shows tokenProblem instead.
    if (tokenProblem) throw new Error(tokenProblem.key);
    const hubToken = answer.data!.AccessToken;
    if (accessToken === forToken) cached = { hubToken, fetchedAt: now() };
    if (refetching) [refetched, refetching] = [hubToken, false];
    return hubToken;
  }

  function build(): HubConnection {
    const connection = new HubConnectionBuilder()
      .withUrl(options.url, { accessTokenFactory: hubToken, withCredentials: options.withCredentials ?? true, transport: options.transport })
      .withAutomaticReconnect([...hubTiming.reconnectDelaysMs])
      .withServerTimeout(hubTiming.timeoutMs)
      .withKeepAliveInterval(hubTiming.keepAliveMs)
      .configureLogging(LogLevel.None)
      .build();
    for (const [target, set] of handlers) for (const handler of set) connection.on(target, handler);
    const sync = () => {
      if (current === connection) $state.set(connection.state);
    };
    connection.onreconnecting(sync);
    connection.onreconnected(sync);
    connection.onclose((error) => {
      sync();
      if (error && current === connection) void failed(connection, error);
    });
    return connection;
  }

  async function connect(connection: HubConnection): Promise<void> {
    tokenProblem = null;
    $problem.set(null);
    const starting = connection.start();
    $state.set(connection.state);
    try {
      await starting;
    } catch (error) {
      if (current !== connection) return;
      $state.set(connection.state);
      if (tokenProblem) $problem.set(tokenProblem);
      else await failed(connection, error as Error);
      return;
    }
    if (current === connection) $state.set(connection.state);
  }

  /** The hub refused a hub token: fetch a new one, once. A refused refetch, and anything else, is shown. */
  async function failed(connection: HubConnection, error: Error): Promise<void> {
    if (!wanted) return;
    if (isUnauthorized(error) && !(cached && cached.hubToken === refetched)) {
      cached = null;
      refetching = true;
      await connect(connection);
      return;
    }
    $problem.set(problemOf(error));
  }

  return {
    $state,
    $problem,

    /** The access token connections are made for. A change stops the connection; a new one starts when one is wanted. */
    setAccessToken(token: string | null): void {
      if (token === accessToken) return;
      accessToken = token;
      cached = null;
      const previous = current;
      current = null;
      $state.set(HubConnectionState.Disconnected);
      $problem.set(null);
      void previous?.stop();
      if (token && wanted) void this.start();
    },

    /** Connects (or waits for an access token to connect with). Refused unless Disconnected. */
    async start(): Promise<void> {
      wanted = true;
      if (!accessToken) return;
      current ??= build();
      if (current.state !== HubConnectionState.Disconnected) throw new Error(`The realtime connection can only start when Disconnected; it is ${current.state}.`);
      await connect(current);
    },

    async stop(): Promise<void> {
      wanted = false;
      const connection = current;
      if (!connection) return;
      const stopping = connection.stop();
      $state.set(connection.state);
      await stopping;
      if (current === connection) $state.set(connection.state);
    },

    /** Calls a hub method and waits for its result. Refused unless Connected. */
    invoke<T>(method: string, ...args: unknown[]): Promise<T> {
      if (!current || current.state !== HubConnectionState.Connected) return Promise.reject(new Error(`Cannot send: the realtime connection is ${$state.get()}.`));
      return current.invoke<T>(method, ...args);
    },

    /** Runs `handler` for every push of `target`, across reconnects and rebuilt connections. */
    on(target: string, handler: Handler): () => void {
      let set = handlers.get(target);
      if (!set) handlers.set(target, (set = new Set()));
      set.add(handler);
      current?.on(target, handler);
      return () => {
        set.delete(handler);
        current?.off(target, handler);
      };
    },
  };
}

export type HubClient = ReturnType<typeof createHubClient>;
