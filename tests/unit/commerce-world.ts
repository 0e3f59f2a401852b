/**
 * A world for the buying islands' stores in Node (src/features/commerce,
 * activation, support): answers per route (a value, or a function that may
 * throw or wait), every call recorded with whether it went as the logged-in
 * user, a session, the live order driven by hand, an address bar, and Vitest's
 * fake clock.
 */
import { atom } from 'nanostores';
import { vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import type { Order, OrderDetail, OrderNotice } from '#contract/commerce.ts';
import type { UserInfo } from '#contract/identity.ts';
import type { Call } from '@/lib/api/client.ts';

export type Reply = (options: { params?: unknown; body?: unknown }) => unknown;

export interface RecordedCall {
  route: ApiRoute;
  params?: unknown;
  body?: unknown;
  /** Made as the logged-in user. */
  auth: boolean;
}

export const user: UserInfo = {
  Id: 7,
  NickName: 'Beacon-0000',
  Phone: '138****0000',
  Email: null,
  AvatarUrl: {},
  HasPassword: true,
  CreatedAt: '2026-01-01T00:00:00.000Z',
  ExternalAccounts: [],
};

export const order: Order = {
  Key: 'BT20260101000000000001',
  State: 'created',
  Outcome: null,
  Item: { Kind: 'membership', Product: 'idle-1m', Months: 1, Amount: null, Currency: null, RatePpm: null, SteamId: null },
  Price: 1500,
  Method: null,
  CreatedAt: '2026-01-01T00:00:00.000Z',
  ExpiresAt: '2026-01-01T00:15:00.000Z',
  Agreement: null,
};

/** The order as its customer reads it: by default payable with both providers and the wallet. */
export const orderDetail = (changes: Partial<OrderDetail> = {}): OrderDetail => ({
  ...order,
  Timeline: [],
  PayWith: ['wechatpay', 'alipay', 'wallet'],
  ...changes,
});

export function getCommerceWorld(options: { search?: string; phone?: boolean; loggedIn?: boolean } = {}) {
  const replies = new Map<ApiRoute, Reply>();
  const calls: RecordedCall[] = [];
  const caller =
    (auth: boolean): Call =>
    async (route, callOptions) => {
      calls.push({ route, params: callOptions?.params, body: callOptions?.body, auth });
      const reply = replies.get(route);
      if (!reply) throw new Error(`unexpected call ${route.path}`);
      return reply({ params: callOptions?.params, body: callOptions?.body }) as never;
    };
  /** The live order's listeners: `changed` tells them to read their order again. */
  const followers = new Map<string, (notice: OrderNotice | null) => void>();
  const loggedIn = options.loggedIn ?? true;
  const search = options.search ?? '';
  const env = {
    call: caller(false),
    authCall: caller(true),
    session: { $isLoggedIn: atom(loggedIn), $user: atom<UserInfo | null>(loggedIn ? user : null) },
    followOrder: vi.fn((key: string, changed: (notice: OrderNotice | null) => void) => {
      followers.set(key, changed);
      return () => followers.delete(key);
    }),
    location: { href: `https://beacontoolkit.net/en/payment${search}`, search, assign: vi.fn() },
    phoneScreen: () => options.phone ?? false,
    setTimer: (callback: () => void, ms: number) => {
      const timer = setTimeout(callback, ms);
      return () => clearTimeout(timer);
    },
    now: () => Date.now(),
  };
  /** The live order says to read `key` again (a push, a poll or the hub's connection); resolves once the page's calls have settled. */
  async function changed(key: string): Promise<void> {
    const follower = followers.get(key);
    if (!follower) throw new Error(`nobody follows ${key}`);
    follower(null);
    await vi.advanceTimersByTimeAsync(0);
  }
  return { env, calls, replies, followers, changed };
}
