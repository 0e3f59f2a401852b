/** The timers that close an order as its pay window ends, on the instance whose customer made it. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OrderTimers } from '../../server/modules/commerce/expiry.ts';

describe('order timers', () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date('2026-12-07T12:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('closes each order when its window ends, not before, and one already past at once', async () => {
    const closed: string[] = [];
    const timers = new OrderTimers(async (key) => void closed.push(key));
    timers.watch({ key: 'late', expiresAt: new Date(Date.now() + 15 * 60_000) });
    timers.watch({ key: 'past', expiresAt: new Date(Date.now() - 1000) });
    await vi.advanceTimersByTimeAsync(0);
    expect(closed).toEqual(['past']);
    await vi.advanceTimersByTimeAsync(15 * 60_000 - 1);
    expect(closed).toEqual(['past']);
    await vi.advanceTimersByTimeAsync(1);
    expect(closed).toEqual(['past', 'late']);
  });

  it('closes nothing once stopped: the sweep closes those orders after the restart', async () => {
    const closed: string[] = [];
    const timers = new OrderTimers(async (key) => void closed.push(key));
    timers.watch({ key: 'pending', expiresAt: new Date(Date.now() + 60_000) });
    timers.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(closed).toEqual([]);
  });
});
