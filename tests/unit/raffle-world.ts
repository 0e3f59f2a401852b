/** A world for the raffle pages' stores in Node: an API that answers per route (a value, or a function that may throw), and raffles to answer with. */
import { vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import type { RaffleInfo } from '#contract/raffle.ts';
import type { CallOptions } from '@/lib/api/client.ts';
import { storageKeys } from '@/lib/storage.ts';

type Reply = (options: CallOptions<ApiRoute>) => unknown;

export function testApi() {
  const replies = new Map<ApiRoute, Reply>();
  const answer = (authorized: boolean) =>
    vi.fn(async (route: ApiRoute, options: CallOptions<ApiRoute> = {}) => {
      const reply = replies.get(route);
      if (!reply) throw new Error(`unexpected call ${route.path}`);
      return reply({ ...options, token: authorized ? 'access' : undefined }) as never;
    });
  const call = answer(false);
  const authCall = answer(true);
  /** Answers `route` with `reply` from now on. */
  const on = <R extends ApiRoute>(route: R, reply: (options: CallOptions<R>) => unknown) => replies.set(route, reply as Reply);
  return { call, authCall, on };
}

const text = (words: string) => ({ 'zh-CN': words, 'zh-TW': words, en: words, es: words, it: words, ja: words, ko: words, ru: words });

export function raffle(changes: Partial<RaffleInfo> = {}): RaffleInfo {
  return {
    Id: 7,
    Kind: 'registration',
    Title: text('Anniversary raffle'),
    Description: text('Ten years of Beacon'),
    Cover: null,
    Prizes: [{ Name: text('A year of membership'), Quantity: 1, Grant: null }],
    State: 'open',
    OpensAt: '2026-05-01T00:00:00.000Z',
    ClosesAt: '2026-05-08T00:00:00.000Z',
    DrawAt: '2026-05-09T00:00:00.000Z',
    DrawnAt: null,
    MinAccountAgeDays: 0,
    RegistrationCount: 41,
    Proof: null,
    Instant: null,
    ...changes,
  };
}

/** localStorage as a Map, for the query cache and the session; `loggedIn` stores a valid login. */
export function stubStorage({ loggedIn = true } = {}): void {
  const stored = new Map<string, string>();
  if (loggedIn) stored.set(storageKeys.auth, JSON.stringify({ AccessToken: 'access', ExpiresIn: Date.now() + 3_600_000 }));
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => stored.set(key, value),
    removeItem: (key: string) => stored.delete(key),
  });
}
