/**
 * The hub's open connections across every instance, for the console's dashboard. Each instance holds only its own
 * connections; with Redis (REDIS_URL) each writes its count under a key of its own every few seconds, with a life a
 * little longer than that, and the count everywhere is this instance's live one plus the others' latest; an instance
 * that stopped drops out when its key expires. Without Redis there is this instance alone.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Log } from '../services/redis.ts';
import type { Hub } from './hub.ts';

const keyPrefix = 'beacon:hub:connections:';
/** How often an instance writes its count, and how long the written count lives. */
export const countRenewMs = 5_000;
const countLifeSeconds = 15;

/** Every open connection a transport carries on this instance. */
export const openConnections = (hub: Hub): number => Object.values(hub.connectionsByTransport()).reduce((sum, open) => sum + open, 0);

export interface ConnectionCount {
  /** The open connections now, on every instance counted. */
  count(): Promise<{ connections: number; servers: number }>;
  /** Stops writing this instance's count, and takes it away. */
  stop(): Promise<void>;
}

export function connectionCount(hub: Hub, redis: Redis | null, log: Log): ConnectionCount {
  if (!redis) return { count: async () => ({ connections: openConnections(hub), servers: 1 }), stop: async () => {} };
  const ownKey = `${keyPrefix}${randomUUID()}`;
  const write = () =>
    redis
      .set(ownKey, String(openConnections(hub)), 'EX', countLifeSeconds)
      .catch((error: unknown) => log.warn({ err: error }, 'could not share the hub’s count'));
  void write();
  const renew = setInterval(() => void write(), countRenewMs);
  renew.unref();
  return {
    async count() {
      const own = openConnections(hub);
      try {
        const keys: string[] = [];
        let cursor = '0';
        do {
          const [next, found] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 100);
          keys.push(...found.filter((key) => key !== ownKey));
          cursor = next;
        } while (cursor !== '0');
        const others = keys.length ? await redis.mget(keys) : [];
        const counted = others.filter((value): value is string => value !== null);
        return { connections: own + counted.reduce((sum, value) => sum + Number(value), 0), servers: 1 + counted.length };
      } catch (error) {
        // Redis away: this instance's own count is all there is to tell, and the answer says it counted one server.
        log.warn({ err: error }, 'could not read the other instances’ hub counts');
        return { connections: own, servers: 1 };
      }
    },
    async stop() {
      clearInterval(renew);
      await redis.del(ownKey).catch(() => {});
    },
  };
}
