/**
 * When a followed order is read (src/stores/orders.ts): at connection, on each
 * push, every few seconds while pushes cannot arrive — and now and then while
 * they can, since a push may be lost between the server's instances while
 * their Redis is away.
 */
import { atom } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const hub = vi.hoisted(() => ({ state: null as unknown as ReturnType<typeof atom<string>>, listeners: [] as Array<(notice: unknown) => void> }));
vi.mock('@/stores/realtime.ts', () => {
  hub.state = atom('Disconnected');
  return {
    hub: {
      $state: hub.state,
      on: (_event: unknown, listener: (notice: unknown) => void) => {
        hub.listeners.push(listener);
        return () => hub.listeners.splice(hub.listeners.indexOf(listener), 1);
      },
      follow: () => {
        hub.state.set('Connecting');
        return () => {};
      },
    },
  };
});

const { followOrder, orderPollMs, orderRecheckMs } = await import('@/stores/orders.ts');

describe('following an order', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    hub.state.set('Disconnected');
  });

  it('reads it once connected and again every so often while connected, for a push lost between instances', async () => {
    const changed = vi.fn();
    const stop = followOrder('20261207000000000001', changed);
    expect(changed).not.toHaveBeenCalled();
    hub.state.set('Connected');
    expect(changed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(orderRecheckMs - 1);
    expect(changed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(changed).toHaveBeenCalledTimes(2);
    hub.listeners[0]({ Key: '20261207000000000001', State: 'paid' });
    expect(changed).toHaveBeenLastCalledWith({ Key: '20261207000000000001', State: 'paid' });
    stop();
    await vi.advanceTimersByTimeAsync(orderRecheckMs * 2);
    expect(changed).toHaveBeenCalledTimes(3);
  });

  it('reads it every few seconds while the hub is reconnecting', async () => {
    const changed = vi.fn();
    const stop = followOrder('20261207000000000002', changed);
    hub.state.set('Connected');
    hub.state.set('Reconnecting');
    expect(changed).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(orderPollMs * 3);
    expect(changed).toHaveBeenCalledTimes(5);
    stop();
  });
});
