import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../server/services/ttl-cache.ts';

describe('TtlCache', () => {
  it('forgets entries after their time, and the oldest when full', () => {
    const cache = new TtlCache<string, number>(1000, 2);
    cache.set('a', 1, 0);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1000)).toBeUndefined();
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBe(3);
  });

  it('drops every entry that matches', () => {
    const cache = new TtlCache<string, { session: string }>(1000, 10);
    cache.set('t1', { session: 's1' }, 0);
    cache.set('t2', { session: 's1' }, 0);
    cache.set('t3', { session: 's2' }, 0);
    cache.deleteWhere((entry) => entry.session === 's1');
    expect([cache.get('t1', 1), cache.get('t2', 1), cache.get('t3', 1)]).toEqual([undefined, undefined, { session: 's2' }]);
  });
});
