/**
 * The server side of the realtime hub benchmark (`bench/hub.ts` forks this
 * file): the real app, configured from the environment the benchmark passes
 * (DATABASE_URL a fresh PostgreSQL database or memory://, and DEMO_DATA=true,
 * so the demo user exists). It listens on 127.0.0.1 on a free port, signs a
 * hub token for the demo user and sends `{ port, hubToken, userId }` to the
 * parent over the IPC channel. Then it answers the parent's requests:
 *   { id, type: 'stats' }      → memory (after a full GC when --expose-gc is on) and the hub's connection count
 *   { id, type: 'broadcast', seq, target }
 *                              → hub.broadcast(target, [{ seq, sentAt }]), sentAt being
 *                                performance.timeOrigin + performance.now() just before the call;
 *                                answers with sentAt and how long the fan-out loop took.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import * as z from 'zod/mini';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { signToken } from '../server/crypto/signed.ts';
import { demoAccount } from '../server/services/demo-account.ts';
import { users } from '../server/db/schema.ts';
import { answerParent, closeWithParent } from './child-server.ts';

if (!process.send) throw new Error('bench/hub-server.ts is started by bench/hub.ts (it needs the IPC channel)');

const app = await buildApp(loadConfig({ ...process.env }));
const [demoUser] = await app.db.select({ id: users.id }).from(users).where(eq(users.phone, demoAccount.phone));
// DEMO_DATA seeds only a database without users: one of TEST_POSTGRES_URL may lack the demo user.
if (!demoUser) throw new Error(`The demo user (${demoAccount.phone}) is missing: start the server with DEMO_DATA=true on an empty database`);
const hubToken = signToken(app.keys.secret, 'hub', { sub: demoUser.id, exp: Date.now() + 6 * 3600_000 });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

const now = () => performance.timeOrigin + performance.now();

function stats() {
  // A full collection first (when the benchmark passed --expose-gc), so garbage left by the ramp does not count.
  globalThis.gc?.();
  const memory = process.memoryUsage();
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    heapTotal: memory.heapTotal,
    external: memory.external,
    arrayBuffers: memory.arrayBuffers,
    /** Peak RSS of the process so far, in bytes. */
    maxRss: process.resourceUsage().maxRSS * 1024,
    gc: typeof globalThis.gc === 'function',
    hubSize: app.hub.size,
  };
}

type Request = { type: 'stats' } | { type: 'broadcast'; seq: number; target: string };

answerParent<Request>(async (request) => {
  if (request.type === 'stats') return stats();
  const sentAt = now();
  await app.hub.broadcast({ name: request.target, arguments: z.tuple([z.unknown()], z.unknown()) }, [{ seq: request.seq, sentAt }]);
  // With one instance the backplane delivers synchronously: this is the time every socket took the frame.
  return { sentAt, fanOutMs: now() - sentAt };
});

closeWithParent(app);

process.send({ port, hubToken, userId: demoUser.id });
