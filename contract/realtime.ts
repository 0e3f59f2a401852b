/**
 * The realtime hub (docs/architecture.md, "The realtime hub"): where
 * it is, its timing, what the server pushes and what a client may invoke.
 */
import * as z from 'zod/mini';
import { text } from './fields.ts';

/** Under the API base, like every other call. */
export const hubPath = '/signalr/message';

export const hubTiming = {
  /** The server pings a connection it has sent nothing to for this long; the client does the same. */
  keepAliveMs: 15_000,
  /** Either side drops a peer it has heard nothing from for this long. */
  timeoutMs: 30_000,
  /** A connection must finish its handshake this soon after its transport connects. */
  handshakeTimeoutMs: 15_000,
  /**
   * A negotiated connection that no transport takes up, a long-polling one that stops polling, or one with
   * stateful reconnect whose WebSocket dropped and no new one came for it, is dropped after this long.
   */
  disconnectMs: 15_000,
  /** A long poll with nothing to deliver is answered empty after this long (the client gives up at 100 s). */
  longPollMs: 90_000,
  /** The client's automatic reconnects, then it stops. */
  reconnectDelaysMs: [0, 2_000, 10_000, 30_000],
} as const;

/**
 * Stateful reconnect, over WebSockets only: when the socket drops, the client opens a new one for the
 * same connection and each side replays what the other has not yet acknowledged.
 */
export const statefulReconnect = {
  /** Sent messages are kept until acknowledged; once they take more than this many bytes, further ones wait for acks. */
  bufferBytes: 100_000,
  /** A received message is acknowledged this long after it came, together with any that came meanwhile (the official client's delay is this same fixed second). */
  ackDelayMs: 1_000,
} as const;

/** The close error of a connection whose hub token is missing, invalid or expired. */
export const unauthorizedCloseError = 'Connection closed with an error. HubException: Unauthorized';

export const CloudIdleState = z.enum(['Idling', 'Paused', 'Stopped', 'Finished']);
export type CloudIdleState = z.infer<typeof CloudIdleState>;

const Cards = z.int().check(z.minimum(0));

export const IdledGame = z.object({
  AppId: z.int().check(z.positive()),
  Name: text(z.minLength(1), z.maxLength(200)),
  /** Cards this game still has to drop. */
  CardsRemaining: Cards,
});
export type IdledGame = z.infer<typeof IdledGame>;

/** A user's cloud card-idling status, as pushed in SseAccountIdleCloudStatusNoticeMsg. */
export const CloudIdleStatus = z.object({
  State: CloudIdleState,
  /** The games being idled now. */
  Games: z.array(IdledGame).check(z.maxLength(32)),
  /** Cards still to drop across the whole account, idled now or not. */
  CardsRemaining: Cards,
  /** ISO 8601. */
  UpdatedAt: text(),
});
export type CloudIdleStatus = z.infer<typeof CloudIdleStatus>;

/** What an operator sets; the server stamps UpdatedAt. */
export const CloudIdleUpdate = z.omit(CloudIdleStatus, { UpdatedAt: true });
export type CloudIdleUpdate = z.infer<typeof CloudIdleUpdate>;

/** A method the server calls on clients: its name and argument list. */
export interface HubEvent<A extends z.ZodMiniTuple = z.ZodMiniTuple> {
  name: string;
  arguments: A;
}

/** A method clients invoke on the hub: its name, arguments and result. */
export interface HubMethod<A extends z.ZodMiniTuple = z.ZodMiniTuple, R extends z.ZodMiniType = z.ZodMiniType> {
  name: string;
  arguments: A;
  result: R;
}

export type HubEventArguments<E extends HubEvent> = z.output<E['arguments']>;
export type HubMethodArguments<M extends HubMethod> = z.output<M['arguments']>;
export type HubMethodResult<M extends HubMethod> = z.output<M['result']>;

/**
 * What the server pushes. A push that carries one domain's data is declared
 * beside that data, so a page that follows one kind of push does not load the
 * others' schemas: `orderStatusEvent` in commerce.ts, `serviceStatusEvent` in status.ts.
 */
export const hubEvents = {
  cloudIdleStatus: { name: 'SseAccountIdleCloudStatusNoticeMsg', arguments: z.tuple([CloudIdleStatus]) },
  /** To everyone: a raffle's registration count changed (sent at most once a second per raffle). */
  raffleCount: { name: 'RaffleRegistrationCountMsg', arguments: z.tuple([z.object({ RaffleId: z.int(), Count: z.int() })]) },
  /** To everyone: a raffle was drawn; open raffle pages fetch its winners and their own result. */
  raffleDrawn: { name: 'RaffleDrawnNoticeMsg', arguments: z.tuple([z.object({ RaffleId: z.int() })]) },
} as const satisfies Record<string, HubEvent>;

export const hubMethods = {
  /** The caller's current status, or null when cloud idling never started. */
  getCloudIdleStatus: { name: 'GetCloudIdleStatus', arguments: z.tuple([]), result: z.nullable(CloudIdleStatus) },
} as const satisfies Record<string, HubMethod>;
