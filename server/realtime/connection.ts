/**
 * One hub connection, from negotiate to its end, whatever carries it. The
 * transport only moves text; everything the protocol decides is in hub.ts.
 */
import type { MessageBuffer } from './message-buffer.ts';
import { MessageReader } from './protocol.ts';

export type TransportKind = 'WebSockets' | 'ServerSentEvents' | 'LongPolling';

export interface Transport {
  readonly kind: TransportKind;
  /** Sends one or more whole messages. */
  send(frames: string): void;
  /** Ends the transport once what was sent is on its way. */
  close(): void;
}

export class HubConnection {
  /** Anew for each socket of a connection with stateful reconnect: a message cut off by a dropped socket is replayed whole. */
  reader = new MessageReader();
  /** None until a transport takes the connection, and none while a connection with stateful reconnect waits for its next socket. */
  transport: Transport | null = null;
  /** Negotiate agreed to stateful reconnect; it takes effect when a WebSocket carries a version 2 handshake. */
  statefulReconnect = false;
  /** Stateful reconnect in effect: what was sent and not yet acknowledged, and the counting of what came. */
  buffer: MessageBuffer | null = null;
  /** When its socket dropped, while it waits for the next one. */
  droppedAt: number | null = null;
  /** The user the hub token named when the transport connected; null when it was missing, invalid or expired. */
  userId: number | null = null;
  /** The login session of the hub token, when it named one. */
  sessionId: string | null = null;
  /** It brought no token at all: a public page that only listens to broadcasts. */
  anonymous = false;
  handshaken = false;
  ended = false;
  connectedAt = 0;
  lastReceivedAt: number;
  lastSentAt: number;

  /** Public: the client logs it. */
  readonly id: string;
  /** Secret: only the negotiating client knows it, and it names the connection in every later request. */
  readonly token: string;
  readonly createdAt: number;

  constructor(id: string, token: string, createdAt: number) {
    this.id = id;
    this.token = token;
    this.createdAt = createdAt;
    this.lastReceivedAt = createdAt;
    this.lastSentAt = createdAt;
  }

  /** Sends frames as they are: the handshake answer, pings, a Close, and what the buffer lets go. */
  write(frames: string, now = Date.now()): void {
    if (this.ended || !this.transport) return;
    this.transport.send(frames);
    this.lastSentAt = now;
  }

  /** Sends a message the client counts (an invocation, a completion): with stateful reconnect, through the buffer that keeps it until acknowledged. */
  send(message: string, now = Date.now()): void {
    if (this.ended) return;
    if (this.buffer) this.buffer.send(message);
    else this.write(message, now);
  }
}
