/**
 * The Redis connection of a multi-instance deployment (REDIS_URL): shared rate
 * limits and the realtime backplane. Connecting fails start-up with a clear
 * message; later outages are logged while ioredis reconnects.
 */
import { Redis } from 'ioredis';
import { StartupError } from '../startup-error.ts';

export interface Log {
  warn(object: object, message: string): void;
}

export async function connectRedis(url: string, log: Log): Promise<Redis> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  client.on('error', (error) => log.warn({ err: error }, 'Redis connection error'));
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new StartupError(`Could not connect to Redis at REDIS_URL (${error instanceof Error ? error.message : error})`, { cause: error });
  }
  return client;
}
