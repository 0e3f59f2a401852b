/**
 * The SignalR-compatible hub (docs/architecture.md, "The realtime hub"): the connections, the JSON hub
 * protocol on top of whichever transport carries each one, keep-alive, and
 * pushes to a user or to everyone — through the backplane, so that with Redis a
 * push made on one instance reaches connections held by another.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  unauthorizedCloseError,
  type HubEvent,
  type HubEventArguments,
  type HubMethod as HubMethodContract,
  type HubMethodArguments,
  type HubMethodResult,
} from '#contract/realtime.ts';
import { pushOf, type Backplane, type BackplaneMessage, type Pusher } from './backplane.ts';
import { HubConnection, type Transport, type TransportKind } from './connection.ts';
import { LongPollingTransport } from './long-polling.ts';
import { MessageBuffer } from './message-buffer.ts';
import { frame, frames, InvalidDataError, MessageReader, MessageType, parseMessage, readHandshake, type ClientMessage } from './protocol.ts';

export interface HubTiming {
  keepAliveMs: number;
  timeoutMs: number;
  handshakeTimeoutMs: number;
  longPollMs: number;
  /** A negotiated connection no transport has taken, or a long-polling one no poll has come for, ends after this long. */
  disconnectMs: number;
}

/** Who invoked a hub method. */
export interface Caller {
  userId: number;
  connectionId: string;
}

/** What a method clients may invoke does with their (already checked) arguments; throwing HubError tells the caller why it failed. */
type MethodRun = (caller: Caller, args: unknown[]) => Promise<unknown>;

/** A failure the invoking client may read (anything else is logged and reported as unexpected). */
export class HubError extends Error {}

/** Who a hub token names. */
export interface HubIdentity {
  userId: number;
  /** The login session it was issued to: ending the session ends the connection. */
  sessionId: string | null;
}

export interface HubOptions {
  /** Who a hub token names, or null when it is missing, invalid or expired. */
  authenticate: (token: string | null) => HubIdentity | null;
  timing: HubTiming;
  /** How long a hub token lives: an ended session's tokens are refused for that long. */
  tokenLifetimeMs: number;
  /** Stateful reconnect: how many bytes of unacknowledged messages a connection keeps before sending waits, and how soon arrivals are acknowledged. */
  statefulReconnect: { bufferBytes: number; ackDelayMs: number };
  /** Made by the hub's caller around `deliver`, so pushes can travel between instances. */
  backplane: (deliver: (message: BackplaneMessage) => void) => Promise<Backplane>;
  log: FastifyBaseLogger;
}

/** Transports offered by negotiate, in the order the client should try them; all with the Text format JSON needs. */
const availableTransports = [
  { transport: 'WebSockets', transferFormats: ['Text'] },
  { transport: 'ServerSentEvents', transferFormats: ['Text'] },
  { transport: 'LongPolling', transferFormats: ['Text'] },
];

/** Connection ids and tokens go unencoded into URLs: base64url of 16 random bytes, as .NET makes them. */
const newId = () => randomBytes(16).toString('base64url');

export class Hub implements Pusher {
  /** By connection token. */
  private readonly connections = new Map<string, HubConnection>();
  /** Handshaken, authorised connections by user. */
  private readonly users = new Map<number, Set<HubConnection>>();
  /** Handshaken connections that came without a token: public pages, which hear broadcasts and nothing else. */
  private readonly listeners = new Set<HubConnection>();
  /** Clients match method names case-insensitively; so does .NET's hub, and so does this one. */
  private readonly methods = new Map<string, { name: string; run: MethodRun }>();
  /** Sessions that ended, until every hub token issued to them has expired. */
  private readonly endedSessions = new Map<string, number>();
  /** Who else on this instance must hear of ended sessions (the identity module's memory of recent tokens). */
  private readonly sessionEndListeners: Array<(sessionIds: string[]) => void> = [];
  private readonly sweeper: NodeJS.Timeout;
  private readonly options: HubOptions;
  private backplane!: Backplane;

  private constructor(options: HubOptions) {
    this.options = options;
    const { keepAliveMs, timeoutMs } = options.timing;
    this.sweeper = setInterval(() => this.sweep(Date.now()), Math.min(1000, keepAliveMs / 4, timeoutMs / 4));
    this.sweeper.unref();
  }

  static async create(options: HubOptions): Promise<Hub> {
    const hub = new Hub(options);
    hub.backplane = await options.backplane((message) => hub.deliver(message));
    return hub;
  }

  /**
   * Adds a method clients may invoke, as the contract describes it: the
   * arguments are checked against the contract's tuple before `run` sees them.
   * Each module adds its own.
   */
  addMethod<M extends HubMethodContract>(method: M, run: (caller: Caller, ...args: HubMethodArguments<M>) => Promise<HubMethodResult<M>>): void {
    const key = method.name.toLowerCase();
    if (this.methods.has(key)) throw new Error(`The hub method ${method.name} is already added`);
    const expected = method.arguments.def.items.length;
    this.methods.set(key, {
      name: method.name,
      run: async (caller, args) => {
        const parsed = method.arguments.safeParse(args);
        if (!parsed.success) throw new HubError(`the arguments do not match the method (${expected} expected).`);
        return run(caller, ...(parsed.data as HubMethodArguments<M>));
      },
    });
  }

  get timing(): HubTiming {
    return this.options.timing;
  }

  /** Connections with a finished handshake and a valid token. */
  get size(): number {
    let count = 0;
    for (const set of this.users.values()) count += set.size;
    return count;
  }

  /**
   * Open connections by the transport carrying them, for the metrics (counted when asked, so a
   * connection costs nothing more): negotiated ones no transport took yet, and stateful ones
   * waiting for their next socket, are not carried by any.
   */
  connectionsByTransport(): Record<TransportKind, number> {
    const counts: Record<TransportKind, number> = { WebSockets: 0, ServerSentEvents: 0, LongPolling: 0 };
    for (const connection of this.connections.values()) {
      if (connection.transport && !connection.ended) counts[connection.transport.kind]++;
    }
    return counts;
  }

  /** The negotiate answer (version 0 or 1) for a new connection, agreeing to stateful reconnect when the client asks for it. */
  negotiate(requestedVersion: number, statefulReconnect: boolean): object {
    const id = newId();
    const version = requestedVersion >= 1 ? 1 : 0;
    // Version 0 clients use the connection id as the token.
    const connection = new HubConnection(id, version === 1 ? newId() : id, Date.now());
    connection.statefulReconnect = statefulReconnect;
    this.connections.set(connection.token, connection);
    // Only when asked: a client that did not ask refuses a server that offers it.
    const offer = statefulReconnect ? { useStatefulReconnect: true } : {};
    if (version === 0) return { connectionId: id, availableTransports, ...offer };
    return { connectionId: id, connectionToken: connection.token, negotiateVersion: 1, availableTransports, ...offer };
  }

  /** A WebSocket client that skipped negotiation: its connection is made as it arrives. */
  adopt(): HubConnection {
    const id = newId();
    const connection = new HubConnection(id, id, Date.now());
    this.connections.set(id, connection);
    return connection;
  }

  find(token: string): HubConnection | undefined {
    return this.connections.get(token);
  }

  /** A transport has taken the connection; the hub token it brought decides who the connection is. */
  attach(connection: HubConnection, transport: Transport, hubToken: string | null): void {
    connection.transport = transport;
    connection.connectedAt = connection.lastReceivedAt = Date.now();
    connection.anonymous = !hubToken;
    // As in .NET and the official client, stateful reconnect is for WebSockets only.
    if (transport.kind !== 'WebSockets') connection.statefulReconnect = false;
    const identity = this.identify(hubToken);
    if (identity) {
      connection.userId = identity.userId;
      connection.sessionId = identity.sessionId;
    }
  }

  /**
   * Whether a new WebSocket may take over a connection with stateful reconnect: its hub token must
   * name the connection's user (a listener's brings none again), from a session still going.
   */
  mayReattach(connection: HubConnection, hubToken: string | null): boolean {
    if (connection.anonymous) return !hubToken;
    return this.identify(hubToken)?.userId === connection.userId;
  }

  /**
   * A new WebSocket for a connection with stateful reconnect replaces its socket (gone, or going):
   * the replay of what the client has not acknowledged follows at once.
   */
  reattach(connection: HubConnection, transport: Transport): void {
    const previous = connection.transport;
    connection.transport = transport;
    connection.droppedAt = null;
    connection.reader = new MessageReader();
    connection.lastReceivedAt = Date.now();
    previous?.close();
    connection.buffer!.resend();
  }

  /**
   * A connection's WebSocket closed. One that dropped without a close frame leaves a connection
   * with stateful reconnect waiting for the client's next socket (for `disconnectMs`); any other
   * close ends the connection. A socket that a newer one replaced closes without consequence.
   */
  socketClosed(connection: HubConnection, transport: Transport, abrupt: boolean): void {
    if (connection.transport !== transport) return;
    if (abrupt && connection.buffer && !connection.ended) {
      connection.transport = null;
      connection.droppedAt = Date.now();
      return;
    }
    this.disconnected(connection);
  }

  /** Text from the client: the handshake first, then hub messages. */
  receive(connection: HubConnection, chunk: string): void {
    if (connection.ended) return;
    connection.lastReceivedAt = Date.now();
    try {
      for (const text of connection.reader.read(chunk)) {
        if (connection.ended) return;
        if (!connection.handshaken) {
          this.handshake(connection, text);
          continue;
        }
        const message = parseMessage(text);
        // With stateful reconnect, a replayed duplicate (or anything before the client's Sequence on a new socket) is skipped.
        if (message && connection.buffer && !connection.buffer.accepts(message.type)) continue;
        this.dispatch(connection, message);
      }
    } catch (error) {
      if (!(error instanceof InvalidDataError)) throw error;
      this.end(connection, { error: `Connection closed with an error. InvalidDataException: ${error.message}` });
    }
  }

  /** The client went away (socket closed, stream aborted, DELETE). */
  disconnected(connection: HubConnection): void {
    this.end(connection);
    this.connections.delete(connection.token);
  }

  /** Pushes an event of the contract to every connection of one user, on every instance. */
  toUser<E extends HubEvent>(userId: number, event: E, args: HubEventArguments<E>): Promise<void> {
    return this.backplane.publish(pushOf(event, args, userId));
  }

  /** Pushes an event of the contract to every connection, on every instance. */
  broadcast<E extends HubEvent>(event: E, args: HubEventArguments<E>): Promise<void> {
    return this.backplane.publish(pushOf(event, args));
  }

  /** Signed-out sessions: their connections end at once, on every instance, and their hub tokens no longer connect. */
  endSessions(sessionIds: string[]): Promise<void> {
    return this.backplane.publish({ kind: 'endSessions', sessionIds });
  }

  /** Hears every ended session on this instance, wherever it was ended (this instance, another one, or the operators' command). */
  onSessionsEnded(listener: (sessionIds: string[]) => void): void {
    this.sessionEndListeners.push(listener);
  }

  /** Server shutdown: every client is told it may reconnect (to another instance, or to this one once it is back). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const connection of this.connections.values()) this.end(connection, { allowReconnect: true });
    this.connections.clear();
    await this.backplane.close();
  }

  private deliver(message: BackplaneMessage): void {
    if (message.kind === 'endSessions') return this.endSessionsHere(message.sessionIds);
    const push = message;
    const invocation = frame({ type: MessageType.Invocation, target: push.target, arguments: push.arguments });
    const now = Date.now();
    if (push.userId === undefined) {
      for (const set of this.users.values()) for (const connection of set) connection.send(invocation, now);
      for (const connection of this.listeners) connection.send(invocation, now);
    } else {
      for (const connection of this.users.get(push.userId) ?? []) connection.send(invocation, now);
    }
  }

  /** Who a hub token names, unless its session has ended. */
  private identify(hubToken: string | null): HubIdentity | null {
    const identity = this.options.authenticate(hubToken);
    return identity && !(identity.sessionId && this.endedSessions.has(identity.sessionId)) ? identity : null;
  }

  private endSessionsHere(sessionIds: string[]): void {
    for (const listener of this.sessionEndListeners) listener(sessionIds);
    const until = Date.now() + this.options.tokenLifetimeMs;
    for (const id of sessionIds) this.endedSessions.set(id, until);
    const ended = new Set(sessionIds);
    for (const connection of this.connections.values()) {
      // As for a refused token: the client must not reconnect with what it has.
      if (connection.sessionId && ended.has(connection.sessionId)) this.end(connection, { error: unauthorizedCloseError });
    }
  }

  private handshake(connection: HubConnection, text: string): void {
    const request = readHandshake(text);
    if ('error' in request) {
      connection.write(frame({ error: request.error }));
      this.end(connection);
      return;
    }
    connection.handshaken = true;
    // Negotiated, on a WebSocket, and the client speaks the version with Ack and Sequence (with version 1 it has no buffer of its own).
    if (connection.statefulReconnect && request.version === 2) {
      const { bufferBytes, ackDelayMs } = this.options.statefulReconnect;
      connection.buffer = new MessageBuffer({ limitBytes: bufferBytes, ackDelayMs, transmit: (frames) => connection.write(frames) });
    }
    connection.write(frames.handshakeOk);
    if (connection.userId === null) {
      if (connection.anonymous) {
        this.listeners.add(connection);
        return;
      }
      // A token that names nobody (invalid, expired, signed out), as a .NET hub whose OnConnectedAsync
      // throws HubException("Unauthorized"): the client must not reconnect with it.
      this.end(connection, { error: unauthorizedCloseError });
      return;
    }
    let set = this.users.get(connection.userId);
    if (!set) this.users.set(connection.userId, (set = new Set()));
    set.add(connection);
  }

  private dispatch(connection: HubConnection, message: ClientMessage | null): void {
    switch (message?.type) {
      case MessageType.Invocation:
        void this.invoke(connection, message);
        return;
      case MessageType.StreamInvocation:
        // No method of this hub streams.
        this.complete(connection, message.invocationId, {
          error: this.methods.has(message.target.toLowerCase())
            ? `The client attempted to invoke the non-streaming '${message.target}' method with a streaming invocation.`
            : `Unknown hub method '${message.target}'`,
        });
        return;
      case MessageType.Close:
        this.disconnected(connection);
        return;
      case MessageType.Ack:
        connection.buffer?.acknowledged(message.sequenceId);
        return;
      case MessageType.Sequence: {
        const error = connection.buffer?.sequence(message.sequenceId);
        if (error) this.end(connection, { error: `Connection closed with an error. InvalidOperationException: ${error}` });
        return;
      }
      // Pings only keep the connection alive (any message does). Nothing streams and the server
      // never asks clients for results, so stream items, cancellations and completions have
      // nothing to act on; unknown types (null) are ignored, as the protocol asks.
      default:
        return;
    }
  }

  private async invoke(connection: HubConnection, message: Extract<ClientMessage, { type: 1 }>): Promise<void> {
    const { invocationId, target } = message;
    const method = this.methods.get(target.toLowerCase());
    if (!method) return this.complete(connection, invocationId, { error: `Unknown hub method '${target}'` });
    // Every method is about the caller: a listener without a login has none to call.
    if (connection.userId === null) return this.complete(connection, invocationId, { error: `Failed to invoke '${target}': Unauthorized` });
    if (message.streamIds?.length)
      return this.complete(connection, invocationId, { error: `Failed to invoke '${target}': this hub accepts no streams from clients.` });
    try {
      const result = await method.run({ userId: connection.userId!, connectionId: connection.id }, message.arguments);
      this.complete(connection, invocationId, { result });
    } catch (error) {
      if (error instanceof HubError) return this.complete(connection, invocationId, { error: `Failed to invoke '${target}': ${error.message}` });
      this.options.log.error({ err: error, method: method.name }, 'hub method failed');
      this.complete(connection, invocationId, { error: `An unexpected error occurred invoking '${target}' on the server.` });
    }
  }

  /** Answers an invocation that asked for an answer (one without an id is fire-and-forget). */
  private complete(connection: HubConnection, invocationId: string | undefined, outcome: { result?: unknown; error?: string }): void {
    if (invocationId === undefined) return;
    connection.send(frame({ type: MessageType.Completion, invocationId, ...outcome }));
  }

  /**
   * Ends a connection, first sending a Close message when one is given and the
   * client has finished its handshake. A long-polling connection stays findable
   * until its last poll has collected what is left and been told it ended (204).
   */
  private end(connection: HubConnection, close?: { error?: string; allowReconnect?: boolean }): void {
    if (connection.ended) return;
    if (close && connection.handshaken) connection.write(frame({ type: MessageType.Close, ...close }));
    connection.ended = true;
    connection.buffer?.dispose();
    this.listeners.delete(connection);
    if (connection.userId !== null) {
      const set = this.users.get(connection.userId);
      if (set?.delete(connection) && set.size === 0) this.users.delete(connection.userId);
    }
    connection.transport?.close();
    if (!(connection.transport instanceof LongPollingTransport)) this.connections.delete(connection.token);
  }

  /** Once a second or so: pings to quiet connections, and the end of those gone silent or abandoned. */
  private sweep(now: number): void {
    const { keepAliveMs, timeoutMs, handshakeTimeoutMs, disconnectMs } = this.options.timing;
    for (const [id, until] of this.endedSessions) if (until <= now) this.endedSessions.delete(id);
    for (const connection of this.connections.values()) {
      const { transport } = connection;
      if (!transport) {
        // No transport took it up, or its socket dropped (stateful reconnect) and no new one came.
        if (now - (connection.droppedAt ?? connection.createdAt) > disconnectMs) this.disconnected(connection);
      } else if (transport instanceof LongPollingTransport) {
        // Polls are the keep-alive here (the client neither pings nor times out): no poll for a while means gone.
        if (transport.idleFor(now) > disconnectMs) this.disconnected(connection);
        else if (!connection.handshaken && now - connection.connectedAt > handshakeTimeoutMs) this.end(connection);
      } else if (!connection.handshaken) {
        if (now - connection.connectedAt > handshakeTimeoutMs) this.end(connection);
      } else if (now - connection.lastReceivedAt > timeoutMs) {
        // Closing the transport without a Close message lets a client that was only slow reconnect.
        this.end(connection);
      } else if (now - connection.lastSentAt >= keepAliveMs) {
        connection.write(frames.ping, now);
      }
    }
  }
}
