/**
 * Stateful reconnect's bookkeeping for one connection (@microsoft/signalr 8 and later),
 * kept as ASP.NET Core's MessageBuffer keeps it:
 * - counted messages sent and not yet acknowledged, to replay on the client's next socket;
 * - once those take more than the limit, later messages wait (in order) until acks make room —
 *   so the buffer holds at most the limit plus the one message that crossed it;
 * - received counted messages numbered, replayed duplicates skipped, and arrivals acknowledged
 *   a short delay later, several at once.
 */
import { frame, isCounted, MessageType } from './protocol.ts';

interface Sent {
  id: number;
  message: string;
  bytes: number;
}

export interface MessageBufferOptions {
  limitBytes: number;
  ackDelayMs: number;
  /** Hands frames to whatever transport the connection has now (none while its socket is down). */
  transmit: (frames: string) => void;
}

export class MessageBuffer {
  /** Sent and not yet acknowledged, oldest first. */
  private sent: Sent[] = [];
  private sentBytes = 0;
  private sentCount = 0;
  /** Not sent yet: what awaited acknowledgement was over the limit when they came. */
  private waiting: string[] = [];

  /** Counted messages from the client are numbered from 1; after a new socket its Sequence says where the count resumes. */
  private nextReceivedId = 1;
  private latestReceivedId = 0;
  private lastAckedId = 0;
  /** After a new socket, everything before the client's Sequence is ignored (the client does the same). */
  private awaitingSequence = false;
  private ackTimer: NodeJS.Timeout | null = null;

  private readonly options: MessageBufferOptions;

  constructor(options: MessageBufferOptions) {
    this.options = options;
  }

  /** Sends a counted message, keeping it until acknowledged; or, while the buffer is over its limit, queues it. */
  send(message: string): void {
    if (this.waiting.length > 0 || this.sentBytes > this.options.limitBytes) this.waiting.push(message);
    else this.keepAndTransmit(message);
  }

  /** The client has every message up to `sequenceId`: they are let go, and waiting ones sent while there is room. */
  acknowledged(sequenceId: number): void {
    let count = 0;
    while (count < this.sent.length && this.sent[count].id <= sequenceId) this.sentBytes -= this.sent[count++].bytes;
    this.sent.splice(0, count);
    while (this.waiting.length > 0 && this.sentBytes <= this.options.limitBytes) this.keepAndTransmit(this.waiting.shift()!);
  }

  /**
   * A new socket carries the connection: first the Sequence of the oldest unacknowledged message
   * (or of the next one, when every message was acknowledged), then each unacknowledged message again.
   */
  resend(): void {
    this.awaitingSequence = true;
    this.options.transmit(frame({ type: MessageType.Sequence, sequenceId: this.sent[0]?.id ?? this.sentCount + 1 }));
    for (const { message } of this.sent) this.options.transmit(message);
  }

  /** Whether a message from the client is to be acted on: not while its Sequence is awaited, and not a replayed duplicate. */
  accepts(type: number): boolean {
    if (this.awaitingSequence) {
      if (type !== MessageType.Sequence) return false;
      this.awaitingSequence = false;
      return true;
    }
    if (!isCounted(type)) return true;
    const id = this.nextReceivedId++;
    if (id <= this.latestReceivedId) return false;
    this.latestReceivedId = id;
    this.scheduleAck();
    return true;
  }

  /**
   * The client's Sequence: its next counted message is number `sequenceId`, the oldest it holds no
   * ack for. An error when it claims more than arrived, which no replay could explain.
   */
  sequence(sequenceId: number): string | null {
    if (sequenceId > this.nextReceivedId) return "Sequence ID greater than amount of messages we've received.";
    this.nextReceivedId = sequenceId;
    // An ack sent while the socket was going down never arrived: acknowledge those messages again.
    this.lastAckedId = Math.min(this.lastAckedId, sequenceId - 1);
    this.scheduleAck();
    return null;
  }

  /** The connection ended: no more acks, and nothing kept. */
  dispose(): void {
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    this.sent = [];
    this.waiting = [];
    this.sentBytes = 0;
  }

  private keepAndTransmit(message: string): void {
    const bytes = Buffer.byteLength(message);
    this.sent.push({ id: ++this.sentCount, message, bytes });
    this.sentBytes += bytes;
    this.options.transmit(message);
  }

  private scheduleAck(): void {
    if (this.ackTimer || this.latestReceivedId <= this.lastAckedId) return;
    this.ackTimer = setTimeout(() => {
      this.ackTimer = null;
      this.lastAckedId = this.latestReceivedId;
      this.options.transmit(frame({ type: MessageType.Ack, sequenceId: this.lastAckedId }));
    }, this.options.ackDelayMs);
    this.ackTimer.unref();
  }
}
