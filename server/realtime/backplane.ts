/**
 * How a push reaches the connections it is for. One instance: straight to its
 * own hub. Several (REDIS_URL): every push is published on one Redis channel
 * and each instance — the publisher too — delivers it to the connections it
 * holds, so there is one path and nothing is delivered twice.
 */
import type { Redis } from 'ioredis';
import type { Log } from '../services/redis.ts';

/** A hub invocation for one user's connections, or for everyone when `userId` is absent. */
export interface Push {
  userId?: number;
  target: string;
  arguments: unknown[];
}

export interface Backplane {
  publish(push: Push): Promise<void>;
  close(): Promise<void>;
}

const channel = 'beacon:hub';

export function localBackplane(deliver: (push: Push) => void): Backplane {
  return {
    publish: async (push) => deliver(push),
    close: async () => {},
  };
}

/**
 * Publishes on `client`; when `deliver` is given, also subscribes (on a second
 * connection, as Redis requires) and hands every push to it. Without `deliver`
 * it only publishes: the admin command run away from any server uses that.
 */
export async function redisBackplane(client: Redis, deliver?: (push: Push) => void, log?: Log): Promise<Backplane> {
  const subscriber = deliver ? client.duplicate() : null;
  if (subscriber && deliver) {
    subscriber.on('error', (error) => log?.warn({ err: error }, 'Redis subscriber error'));
    subscriber.on('message', (_channel: string, text: string) => deliver(JSON.parse(text) as Push));
    await subscriber.subscribe(channel);
  }
  return {
    publish: async (push) => {
      await client.publish(channel, JSON.stringify(push));
    },
    close: async () => {
      await subscriber?.quit();
    },
  };
}
