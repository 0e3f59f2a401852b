/**
 * One hub connection, from negotiate to its end, whatever carries it. The
 * transport only moves text; everything the protocol decides is in hub.ts.
 */
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
  readonly reader = new MessageReader();
  transport: Transport | null = null;
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

  write(frames: string, now = Date.now()): void {
    if (this.ended || !this.transport) return;
    this.transport.send(frames);
    this.lastSentAt = now;
  }
}
