/**
 * How a push reaches the connections it is for. One instance: straight to its
 * own hub. Several (REDIS_URL): every push is published on one Redis channel
 * and each instance — the publisher too — delivers it to the connections it
 * holds, so there is one path and nothing is delivered twice.
 */
import type { Redis } from 'ioredis';
import type { HubEvent, HubEventArguments } from '#contract/realtime.ts';
import type { Log } from '../services/redis.ts';

/** A hub invocation for one user's connections, or for everyone when `userId` is absent. */
export interface Push {
  kind: 'push';
  userId?: number;
  target: string;
  arguments: unknown[];
}

/** The push of a contract event to one user's connections, or to everyone's without `userId`. */
export function pushOf<E extends HubEvent>(event: E, args: HubEventArguments<E>, userId?: number): Push {
  return { kind: 'push', userId, target: event.name, arguments: args };
}

/** What travels between instances: pushes, and sessions whose connections must end. */
export type BackplaneMessage = Push | { kind: 'endSessions'; sessionIds: string[] };

export interface Backplane {
  publish(message: BackplaneMessage): Promise<void>;
  close(): Promise<void>;
}

/** Where a push goes: the hub of a running server, or the backplane straight to every server. */
export interface Pusher {
  toUser<E extends HubEvent>(userId: number, event: E, args: HubEventArguments<E>): Promise<void>;
  broadcast<E extends HubEvent>(event: E, args: HubEventArguments<E>): Promise<void>;
  /** Closes the live connections of sessions that were signed out. */
  endSessions(sessionIds: string[]): Promise<void>;
}

const channel = 'beacon:hub';

export function localBackplane(deliver: (message: BackplaneMessage) => void): Backplane {
  return {
    publish: async (message) => deliver(message),
    close: async () => {},
  };
}

/**
 * Publishes on `client`; when `deliver` is given, also subscribes (on a second
 * connection, as Redis requires) and hands every push to it. Without `deliver`
 * it only publishes: the admin command run away from any server uses that.
 *
 * While Redis is away, a server's push still reaches the connections it holds
 * itself (delivered here, not through Redis); those on other instances miss
 * it, and the pages that wait for something also ask for it themselves (the
 * pay page checks its order). ioredis subscribes again when Redis is back.
 */
export async function redisBackplane(client: Redis, deliver?: (message: BackplaneMessage) => void, log?: Log): Promise<Backplane> {
  const subscriber = deliver ? client.duplicate() : null;
  if (subscriber && deliver) {
    subscriber.on('error', (error) => log?.warn({ err: error }, 'Redis subscriber error'));
    subscriber.on('message', (_channel: string, text: string) => deliver(JSON.parse(text) as BackplaneMessage));
    // The connection has no offline queue (services/redis.ts): it connects before it subscribes.
    await subscriber.connect();
    await subscriber.subscribe(channel);
  }
  return {
    publish: async (message) => {
      try {
        await client.publish(channel, JSON.stringify(message));
      } catch (error) {
        // The operators' command, away from any server, has no connections to reach: it says it could not push.
        if (!deliver) throw error;
        log?.warn({ err: error }, 'Redis is away: a push reaches only this instance’s connections');
        deliver(message);
      }
    },
    close: async () => {
      await subscriber?.quit();
    },
  };
}

/** Pushes straight onto a backplane, for the operators' command run away from any server. */
export function backplanePusher(backplane: Backplane): Pusher {
  return {
    toUser: (userId, event, args) => backplane.publish(pushOf(event, args, userId)),
    broadcast: (event, args) => backplane.publish(pushOf(event, args)),
    endSessions: (sessionIds) => backplane.publish({ kind: 'endSessions', sessionIds }),
  };
}
