/** The WebSocket transport: messages both ways in text frames, each frame holding whole messages only. */
import { WebSocket } from 'ws';
import type { Transport } from './connection.ts';

export class WebSocketTransport implements Transport {
  readonly kind = 'WebSockets';

  private readonly socket: WebSocket;

  constructor(socket: WebSocket) {
    this.socket = socket;
  }

  send(frames: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(frames);
  }

  close(): void {
    // 1000: a normal close, which the client does not report as an error.
    this.socket.close(1000);
  }
}
