/** The Server-Sent Events transport: one long response carrying the server's messages; the client sends by POST. */
import { PassThrough } from 'node:stream';
import type { Transport } from './connection.ts';

export class ServerSentEventsTransport implements Transport {
  readonly kind = 'ServerSentEvents';
  /** The response body. */
  readonly stream = new PassThrough();

  constructor() {
    // A comment line at once: the client's EventSource (and any proxy) sees the stream open.
    this.stream.write(':\r\n');
  }

  send(frames: string): void {
    // JSON never holds a raw line break, so the messages are one data line.
    this.stream.write(`data: ${frames}\r\n\r\n`);
  }

  close(): void {
    this.stream.end();
  }
}
