/**
 * The long-polling transport: each GET waits for messages and returns them
 * (200), returns empty when nothing came in time (200, the client polls
 * again), or says the connection ended (204). POSTs carry the client's messages.
 */
import type { Transport } from './connection.ts';

export type PollAnswer = { status: 200; body: string } | { status: 204 };

interface PendingPoll {
  answer: (answer: PollAnswer) => void;
  timer: NodeJS.Timeout;
}

export class LongPollingTransport implements Transport {
  readonly kind = 'LongPolling';
  private queue: string[] = [];
  private pending: PendingPoll | null = null;
  private closed = false;
  private lastPollEndedAt = Date.now();

  private readonly pollMs: number;

  constructor(pollMs: number) {
    this.pollMs = pollMs;
  }

  send(frames: string): void {
    this.queue.push(frames);
    this.flush();
  }

  close(): void {
    this.closed = true;
    this.flush();
  }

  /** Whether a poll is waiting for messages. */
  get waiting(): boolean {
    return this.pending !== null;
  }

  /** How long no poll has been waiting; 0 while one is. */
  idleFor(now: number): number {
    return this.waiting ? 0 : now - this.lastPollEndedAt;
  }

  /** The answer to one poll. A newer poll ends a waiting one with 204, as .NET does. */
  poll(): Promise<PollAnswer> {
    this.answerPending({ status: 204 });
    if (this.queue.length > 0 || this.closed) return Promise.resolve(this.take());
    return new Promise((answer) => {
      const timer = setTimeout(() => this.answerPending({ status: 200, body: '' }), this.pollMs);
      this.pending = { answer, timer };
    });
  }

  /** Ends a waiting poll empty: its request is gone, so what is queued waits for the next one. */
  release(): void {
    this.answerPending({ status: 200, body: '' });
  }

  private flush(): void {
    if (this.pending) this.answerPending(this.take());
  }

  private take(): PollAnswer {
    if (this.queue.length === 0) return { status: 204 };
    const body = this.queue.join('');
    this.queue = [];
    return { status: 200, body };
  }

  private answerPending(answer: PollAnswer): void {
    const pending = this.pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending = null;
    this.lastPollEndedAt = Date.now();
    pending.answer(answer);
  }
}
