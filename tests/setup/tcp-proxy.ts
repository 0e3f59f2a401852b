/**
 * A TCP proxy in front of a server (PostgreSQL, Redis) that a test can cut
 * off and bring back, as the server going away and returning looks to a
 * client: `cut()` resets every open connection and refuses new ones (the port
 * stops listening); `silence()` resets them too but takes new ones and never
 * answers (a server hung, a network dropping packets); `restore()` serves on
 * the same port again.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `host:port` of the proxy, to put in the client's URL in place of the server's. */
  address: string;
  cut(): Promise<void>;
  silence(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };
  let silent = false;
  const held = new Set<Socket>();
  const server: Server = createServer((client) => {
    track(client);
    if (silent) return void held.add(client);
    const upstream = createConnection(target);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = (server.address() as { port: number }).port;
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  return {
    address: `127.0.0.1:${port}`,
    async cut() {
      const closed = stopListening();
      for (const socket of open) socket.resetAndDestroy();
      await closed;
    },
    silence() {
      silent = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    async restore() {
      silent = false;
      for (const socket of held) socket.destroy();
      held.clear();
      if (!server.listening) await listen(port);
    },
    async close() {
      const closed = stopListening();
      for (const socket of open) socket.destroy();
      await closed;
    },
  };
}
