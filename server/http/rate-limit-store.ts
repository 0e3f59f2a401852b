/**
 * Where the API's rate limits count: in Redis, so every instance counts one
 * address's requests together, and in the instance's own memory while Redis is
 * away (docs/deploy.md, "When something is down"): an outage must not turn
 * every call into an error, nor switch the limits off. Each instance then
 * counts alone, so an address may make up to one limit per instance until
 * Redis is back; the counts kept in memory are dropped when it is.
 *
 * The two stores are @fastify/rate-limit's own; this one only picks between
 * them, call by call, by whether the Redis connection is ready.
 */
import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];

// The package ships its two stores without type declarations of their own.
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (continueExceeding: boolean, exponentialBackoff: boolean) => FastifyRateLimitStore;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  nameSpace: string,
) => FastifyRateLimitStore;

class RedisOrMemoryStore implements FastifyRateLimitStore {
  private readonly redis: Redis;
  private readonly shared: FastifyRateLimitStore;
  private readonly local: FastifyRateLimitStore;

  constructor(redis: Redis, shared: FastifyRateLimitStore, local: FastifyRateLimitStore) {
    this.redis = redis;
    this.shared = shared;
    this.local = local;
  }

  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
    if (this.redis.status !== 'ready') return this.local.incr(key, callback, timeWindow, max);
    // Redis went away between the check and the answer: this call counts in memory too.
    this.shared.incr(key, (error, result) => (error ? this.local.incr(key, callback, timeWindow, max) : callback(null, result)), timeWindow, max);
  }

  child(routeOptions: RouteOptions): FastifyRateLimitStore {
    return new RedisOrMemoryStore(this.redis, this.shared.child(routeOptions), this.local.child(routeOptions));
  }
}

/** The store class @fastify/rate-limit makes its store from: Redis under `nameSpace`, memory while Redis is not ready. */
export function redisOrMemoryStore(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  return class extends RedisOrMemoryStore {
    // The plugin hands its store the options it settled on, these two among them (its types leave them out).
    constructor({
      continueExceeding = false,
      exponentialBackoff = false,
    }: FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      super(redis, new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace), new LocalStore(continueExceeding, exponentialBackoff));
    }
  };
}
