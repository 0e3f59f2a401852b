/**
 * A TCP proxy in front of a server (PostgreSQL, Redis) that a test can cut
 * off and bring back, as the server going away and returning looks to a
 * client: `cut()` resets every open connection and refuses new ones (the port
 * stops listening), `restore()` listens on the same port again.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `host:port` of the proxy, to put in the client's URL in place of the server's. */
  address: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };
  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    track(client);
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
    restore: () => listen(port),
    async close() {
      const closed = stopListening();
      for (const socket of open) socket.destroy();
      await closed;
    },
  };
}
