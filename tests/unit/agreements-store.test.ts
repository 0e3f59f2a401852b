/**
 * The auto-renewal agreements (src/features/account/agreements-store.ts) in
 * Node: the list loads when first shown; cancelling one shows it as the
 * server answers it, and a refusal leaves it as it was.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { agreementCalls, type Agreement } from '#contract/agreements.ts';
import { createAgreements } from '@/features/account/agreements-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

const agreement = (Key: string, State: Agreement['State']): Agreement => ({
  Key,
  State,
  Product: 'cloud-idle-monthly',
  Months: 1,
  Price: 1500,
  CreatedAt: '2026-01-01T00:00:00.000Z',
  SignedAt: State === 'pending' ? null : '2026-01-01T00:01:00.000Z',
  NextChargeAt: State === 'active' ? '2026-02-01T00:00:00.000Z' : null,
  FailedCharges: 0,
  EndedAt: State === 'canceled' ? '2026-02-01T00:00:00.000Z' : null,
});
const active = agreement('A00000000000000000001', 'active');
const pending = agreement('A00000000000000000002', 'pending');
const lapsed = agreement('A00000000000000000003', 'lapsed');
const canceled = { ...active, State: 'canceled', NextChargeAt: null, EndedAt: '2026-02-01T00:00:00.000Z' } satisfies Agreement;

/** A world whose routes answer as `replies` say (a value, or a function that may throw). */
function getTestEnvironment(replies: Map<ApiRoute, (params: unknown) => unknown>) {
  const calls: Array<{ route: ApiRoute; params: unknown }> = [];
  const call = vi.fn(async (route: ApiRoute, options?: { params?: unknown }) => {
    calls.push({ route, params: options?.params });
    const reply = replies.get(route);
    if (!reply) throw new Error(`unexpected call ${route.path}`);
    return reply(options?.params);
  });
  return { env: { call: call as never }, calls };
}

/** The agreements as the island shows them: mounted, the list loaded (or failed). */
async function shown(world: ReturnType<typeof getTestEnvironment>) {
  const store = createAgreements(world.env);
  store.$agreements.listen(() => {});
  await vi.waitFor(() => expect(store.$busy.get()).toBe(false));
  return store;
}

describe('the agreements', () => {
  it('loads the list when first shown', async () => {
    const world = getTestEnvironment(new Map([[agreementCalls.list, () => [active, lapsed]]]));
    const store = createAgreements(world.env);
    expect(world.calls).toEqual([]);
    store.$agreements.listen(() => {});
    await vi.waitFor(() => expect(store.$agreements.get()).toEqual([active, lapsed]));
    expect(store.$notice.get()).toBeNull();
  });

  it('says why the list did not load', async () => {
    const world = getTestEnvironment(
      new Map([
        [
          agreementCalls.list,
          () => {
            throw new ApiFailure('network');
          },
        ],
      ]),
    );
    const store = await shown(world);
    expect(store.$agreements.get()).toBeNull();
    expect(store.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });

  it('offers to cancel only an agreement that is pending or active', () => {
    const store = createAgreements(getTestEnvironment(new Map()).env);
    expect([active, pending, lapsed, canceled].map(store.cancellable)).toEqual([true, true, false, false]);
  });

  it('cancels one, says so and shows it as the server answered, leaving the others', async () => {
    const world = getTestEnvironment(
      new Map<ApiRoute, (params: unknown) => unknown>([
        [agreementCalls.list, () => [active, lapsed]],
        [agreementCalls.cancel, () => canceled],
      ]),
    );
    const store = await shown(world);
    const cancelling = store.cancel(active.Key);
    expect(store.$busy.get()).toBe(true);
    // A second press while the first runs asks nothing more of the server.
    await store.cancel(active.Key);
    await cancelling;
    expect(world.calls.filter((made) => made.route === agreementCalls.cancel)).toEqual([{ route: agreementCalls.cancel, params: { key: active.Key } }]);
    expect(store.$agreements.get()).toEqual([canceled, lapsed]);
    expect(store.$notice.get()).toEqual({ kind: 'ok', key: 'account.agreements.canceled' });
  });

  it('shows the server’s words when it refuses, and the agreement as it was', async () => {
    const world = getTestEnvironment(
      new Map<ApiRoute, (params: unknown) => unknown>([
        [agreementCalls.list, () => [active]],
        [
          agreementCalls.cancel,
          () => {
            throw new ApiFailure('server', { code: 4000, serverMessage: 'This agreement has ended already.' });
          },
        ],
      ]),
    );
    const store = await shown(world);
    await store.cancel(active.Key);
    expect(store.$agreements.get()).toEqual([active]);
    expect(store.$notice.get()).toEqual({ kind: 'error', text: 'This agreement has ended already.' });
  });
});
