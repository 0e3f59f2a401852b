/**
 * The API client as a store's Node test sees it: each route answers as the
 * test says (a value, or a refusal it throws), every call is recorded in
 * order, and a call the test did not expect fails the test.
 */
import { vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';

export interface FakeCallOptions {
  body?: unknown;
  params?: unknown;
  token?: string | null;
}

export type Reply = (options: FakeCallOptions) => unknown;

export interface RecordedCall extends FakeCallOptions {
  route: ApiRoute;
}

/** A `call` answering `answers` (later entries win), and the calls made of it. */
export function fakeApi(answers: Array<[ApiRoute, Reply]>) {
  const replies = new Map<ApiRoute, Reply>(answers);
  const calls: RecordedCall[] = [];
  const call = vi.fn(async (route: ApiRoute, options: FakeCallOptions = {}) => {
    calls.push({ route, ...options });
    const reply = replies.get(route);
    if (!reply) throw new Error(`unexpected call ${route.path}`);
    return reply(options);
  });
  // The stores' `Call` is generic over the route; the fake answers whatever the test says.
  return { call: call as never, calls };
}
