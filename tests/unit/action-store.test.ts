/** One action at a time behind an island (src/stores/action.ts): busy while it runs, then its outcome as a notice the island translates. */
import { describe, expect, it } from 'vitest';
import { ApiFailure } from '@/lib/api/errors.ts';
import { createAction } from '@/stores/action.ts';

describe('an action behind an island', () => {
  it('is busy while it runs, then says it is done and hands back the result', async () => {
    const action = createAction<'saved'>();
    let finish!: (value: number) => void;
    const running = action.run(() => new Promise<number>((resolve) => (finish = resolve)), 'saved', { count: 2 });
    expect(action.$busy.get()).toBe(true);
    finish(7);
    await expect(running).resolves.toBe(7);
    expect(action.$busy.get()).toBe(false);
    expect(action.$notice.get()).toEqual({ kind: 'ok', key: 'saved', params: { count: 2 } });
  });

  it('shows the server’s own words for a refusal and resolves to undefined', async () => {
    const action = createAction();
    const result = await action.run(() => Promise.reject(new ApiFailure('server', { code: 1, serverMessage: 'Code expired' })));
    expect(result).toBeUndefined();
    expect(action.$notice.get()).toEqual({ kind: 'error', text: 'Code expired' });
    expect(action.$busy.get()).toBe(false);
  });

  it('names our message for a failure without words of its own, and clears it when the next action starts', async () => {
    const action = createAction<'saved'>();
    await action.run(() => Promise.reject(new ApiFailure('network')));
    expect(action.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    const next = action.run(() => Promise.resolve());
    expect(action.$notice.get()).toBeNull();
    await next;
  });

  it('refuses by key before any call, and clears on request', () => {
    const action = createAction<'form.empty'>();
    action.refuse('form.empty', { field: 'name' });
    expect(action.$notice.get()).toEqual({ kind: 'error', key: 'form.empty', params: { field: 'name' } });
    action.clear();
    expect(action.$notice.get()).toBeNull();
  });

  it('says any outcome by key, as a success or a failure', () => {
    const action = createAction<'linked' | 'denied'>();
    action.say('ok', 'linked', { provider: 'QQ' });
    expect(action.$notice.get()).toEqual({ kind: 'ok', key: 'linked', params: { provider: 'QQ' } });
    action.say('error', 'denied');
    expect(action.$notice.get()).toEqual({ kind: 'error', key: 'denied' });
  });
});
