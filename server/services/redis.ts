/**
 * The Redis connection of a multi-instance deployment (REDIS_URL): shared rate
 * limits and the realtime backplane. Connecting fails start-up with a clear
 * message; later outages are logged while ioredis reconnects, and meanwhile a
 * command fails at once instead of waiting for the connection (no offline
 * queue, a deadline per command): its caller does without Redis
 * (http/rate-limit-store.ts, realtime/backplane.ts).
 */
import { Redis } from 'ioredis';
import { StartupError } from '../startup-error.ts';

export interface Log {
  warn(object: object, message: string): void;
}

/** How long a command may take before its caller does without Redis: a Redis that answers at all answers in a millisecond or two. */
const commandTimeoutMs = 1000;

export async function connectRedis(url: string, log: Log): Promise<Redis> {
  const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: commandTimeoutMs });
  client.on('error', (error) => log.warn({ err: error }, 'Redis connection error'));
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new StartupError(`Could not connect to Redis at REDIS_URL (${error instanceof Error ? error.message : error})`, { cause: error });
  }
  return client;
}
