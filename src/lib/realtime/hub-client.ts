/**
 * The realtime connection over the official
 * @microsoft/signalr client: one connection per access token, shared by every
 * follower and reused while the token stays, rebuilt when it changes; start
 * refused unless Disconnected, sends refused unless Connected; over WebSockets
 * a dropped socket replaced at once with nothing lost (stateful reconnect),
 * otherwise reconnects after 0, 2, 10 and 30 s, then stops; the hub token
 * cached 10 minutes and fetched again once when the hub refuses it; every
 * failure turned into one of the error messages; methods and pushes typed and
 * checked by the contract. No DOM and no app state here, so tests drive it in
 * Node against the real hub.
 */
import { HubConnectionBuilder, HubConnectionState, LogLevel, type HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { atom } from 'nanostores';
import type { ResponseOf } from '#contract/api.ts';
import { lifetimes, type identity } from '#contract/identity.ts';
import {
  hubTiming,
  statefulReconnect,
  unauthorizedCloseError,
  type HubEvent,
  type HubEventArguments,
  type HubMethod,
  type HubMethodArguments,
  type HubMethodResult,
} from '#contract/realtime.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

export type HubState = `${HubConnectionState}`;

/** The messages a hub's problem may show: what a page hands down to an island that follows the hub (`stringsFor`). */
export const hubProblemKeys = [
  'messages.realtimeTokenExpired',
  'messages.realtimeTokenFetchFailed',
  'messages.realtimeNoToken',
  'messages.genericError',
] as const;

/** An error message: its dictionary key, and what it shows besides. */
export interface HubProblem {
  key: (typeof hubProblemKeys)[number];
  /** 401 for the expired token. */
  code?: number;
  /** The server's own message, shown instead of the key's text. */
  serverMessage?: string;
  /** The `{{error}}` of the generic message. */
  error?: string;
}

export interface HubClientOptions {
  /** The hub, e.g. `/api/signalr/message`. */
  url: string;
  /**
   * `GET /signalr/auth` for this access token. Without it the client connects
   * with no login at all, whenever anyone follows it, and hears only what the
   * hub sends to everyone (public pages).
   */
  fetchHubToken?: (accessToken: string) => Promise<ResponseOf<typeof identity.hubToken>>;
  /** Only for tests, which force each transport in turn. */
  transport?: HttpTransportType;
  /** Boolean or undefined — the client library refuses anything else. */
  withCredentials?: boolean;
  /** Where the hub token is kept for its 10 minutes: across page loads on the site, in memory otherwise. */
  hubTokens?: HubTokenStore;
  now?: () => number;
}

/** A kept hub token: the one fetched for an access token, and when. */
export interface KeptHubToken {
  hubToken: string;
  fetchedAt: number;
}

export interface HubTokenStore {
  /** The hub token kept for this access token, if any. */
  read(accessToken: string): KeptHubToken | null;
  /** Keeps one for this access token; null forgets it. */
  write(accessToken: string, kept: KeptHubToken | null): void;
}

/** A store for one page's memory. */
export function memoryHubTokens(): HubTokenStore {
  let kept: (KeptHubToken & { accessToken: string }) | null = null;
  return {
    read: (accessToken) => (kept?.accessToken === accessToken ? kept : null),
    write: (accessToken, next) => {
      kept = next && { ...next, accessToken };
    },
  };
}

/** What the library hands a push: its raw arguments. */
type Receiver = (...args: unknown[]) => void;

const isUnauthorized = (error: Error) => error.message.includes(unauthorizedCloseError);

function problemOf(error: Error): HubProblem {
  if (isUnauthorized(error)) return { key: 'messages.realtimeTokenExpired', code: 401 };
  return { key: 'messages.genericError', error: error.message };
}

export function createHubClient(options: HubClientOptions) {
  const now = options.now ?? Date.now;
  const { fetchHubToken } = options;
  const $state = atom<HubState>(HubConnectionState.Disconnected);
  const $problem = atom<HubProblem | null>(null);
  const receivers = new Map<string, Set<Receiver>>();
  let accessToken: string | null = null;
  /** The connection for `accessToken`, once one was asked for; dropped when nobody wants it any more. */
  let current: HubConnection | null = null;
  /** How many follow the connection: it is wanted while this is above zero. */
  let followers = 0;
  const hubTokens = options.hubTokens ?? memoryHubTokens();
  /** The hub token kept for the current access token while it is within its lifetime. */
  const cached = (): KeptHubToken | null => {
    const kept = accessToken ? hubTokens.read(accessToken) : null;
    return kept && now() - kept.fetchedAt < lifetimes.hubTokenMs ? kept : null;
  };
  /** The hub token fetched because the hub refused the one before: if the hub refuses it too, that is final. */
  let refetched: string | null = null;
  let refetching = false;
  /** Why the last hub token could not be had; the library only reports a failed negotiation. */
  let tokenProblem: HubProblem | null = null;

  async function hubToken(): Promise<string> {
    const kept = cached();
    if (kept) return kept.hubToken;
    const forToken = accessToken;
    let answer;
    try {
      if (!forToken || !fetchHubToken) throw new Error('no access token');
      answer = await fetchHubToken(forToken);
    } catch (error) {
      tokenProblem = { key: 'messages.realtimeTokenFetchFailed', serverMessage: error instanceof ApiFailure ? error.serverMessage : undefined };
      throw error;
    }
    if (!answer.isSuccess) tokenProblem = { key: 'messages.realtimeTokenFetchFailed', serverMessage: answer.message || undefined };
    else if (!answer.data?.AccessToken) tokenProblem = { key: 'messages.realtimeNoToken' };
    // The library wraps this in its negotiation error; `connect` shows tokenProblem instead.
    if (tokenProblem) throw new Error(tokenProblem.key);
    const hubToken = answer.data!.AccessToken;
    if (accessToken === forToken) hubTokens.write(forToken, { hubToken, fetchedAt: now() });
    if (refetching) [refetched, refetching] = [hubToken, false];
    return hubToken;
  }

  function build(): HubConnection {
    const connection = new HubConnectionBuilder()
      .withUrl(options.url, { accessTokenFactory: fetchHubToken && hubToken, withCredentials: options.withCredentials ?? true, transport: options.transport })
      .withAutomaticReconnect([...hubTiming.reconnectDelaysMs])
      .withServerTimeout(hubTiming.timeoutMs)
      .withKeepAliveInterval(hubTiming.keepAliveMs)
      // Over WebSockets a dropped socket is replaced within the same connection, and nothing sent either way is lost.
      .withStatefulReconnect({ bufferSize: statefulReconnect.bufferBytes })
      .configureLogging(LogLevel.None)
      .build();
    for (const [target, set] of receivers) for (const receive of set) connection.on(target, receive);
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

  /**
   * Starts `connection`. A `retry` brings a new hub token for one the hub
   * refused: until it connects, that refusal stays on show — also when the
   * login behind it ends meanwhile (signed out elsewhere) and the token is taken away.
   */
  async function connect(connection: HubConnection, retry = false): Promise<void> {
    tokenProblem = null;
    refetching = retry;
    if (!retry) $problem.set(null);
    const starting = connection.start();
    $state.set(connection.state);
    try {
      await starting;
    } catch (error) {
      if (current !== connection) return;
      $state.set(connection.state);
      if (!tokenProblem) await failed(connection, error as Error);
      else if (!retry) $problem.set(tokenProblem);
      return;
    }
    if (current !== connection) return;
    $state.set(connection.state);
    $problem.set(null);
  }

  /** Shows why the connection failed. A hub token the hub refused is fetched anew, once. */
  async function failed(connection: HubConnection, error: Error): Promise<void> {
    $problem.set(problemOf(error));
    if (isUnauthorized(error) && cached()?.hubToken !== refetched) {
      if (accessToken) hubTokens.write(accessToken, null);
      await connect(connection, true);
    }
  }

  /** Lets the connection go: its late events no longer reach the page. */
  function disconnect(): void {
    const connection = current;
    current = null;
    $state.set(HubConnectionState.Disconnected);
    void connection?.stop();
  }

  /** Connects now, for the followers. Refused unless Disconnected. */
  async function start(): Promise<void> {
    if (fetchHubToken && !accessToken) return;
    current ??= build();
    if (current.state !== HubConnectionState.Disconnected) throw new Error(`The realtime connection can only start when Disconnected; it is ${current.state}.`);
    await connect(current);
  }

  return {
    $state,
    $problem,

    /**
     * The access token connections are made for. A change stops the connection,
     * and a new token connects again when anyone follows. A new token clears
     * the last problem; a withdrawn one (logout) keeps what ended the connection on show.
     */
    setAccessToken(token: string | null): void {
      if (token === accessToken) return;
      accessToken = token;
      disconnect();
      if (!token) return;
      $problem.set(null);
      if (followers > 0) void start();
    },

    /**
     * Wants the connection until the returned function is called: the first
     * follower connects (or waits for an access token), the last one to let go
     * disconnects, so islands on one page never cut each other off.
     */
    follow(): () => void {
      // A follower watches $state too: what feeds this client while its state is watched (the page's access token) keeps running.
      const unwatch = $state.listen(() => {});
      followers += 1;
      if (followers === 1) {
        void start().catch(() => {
          // Already connected (started without followers): nothing to do.
        });
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        followers -= 1;
        if (followers === 0) disconnect();
        unwatch();
      };
    },

    /** Connects again after the connection gave up (the "Connect again" button). Refused unless Disconnected. */
    start,

    /** Calls a hub method of the contract and checks its answer against it. Refused unless Connected; a malformed answer rejects. */
    async invoke<M extends HubMethod>(method: M, ...args: HubMethodArguments<M>): Promise<HubMethodResult<M>> {
      if (!current || current.state !== HubConnectionState.Connected) throw new Error(`Cannot send: the realtime connection is ${$state.get()}.`);
      const parsed = method.result.safeParse(await current.invoke<unknown>(method.name, ...args));
      if (!parsed.success) throw new Error(`The hub's answer to ${method.name} does not match the contract.`);
      return parsed.data as HubMethodResult<M>;
    },

    /**
     * Runs `handler` with the checked arguments of every push of `event`, across
     * reconnects and rebuilt connections. A push that does not match the
     * contract is dropped: a page never shows a half-formed value.
     */
    on<E extends HubEvent>(event: E, handler: (...args: HubEventArguments<E>) => void): () => void {
      const receive: Receiver = (...args) => {
        const parsed = event.arguments.safeParse(args);
        if (parsed.success) handler(...(parsed.data as HubEventArguments<E>));
      };
      let set = receivers.get(event.name);
      if (!set) receivers.set(event.name, (set = new Set()));
      set.add(receive);
      current?.on(event.name, receive);
      return () => {
        set.delete(receive);
        current?.off(event.name, receive);
      };
    },
  };
}
