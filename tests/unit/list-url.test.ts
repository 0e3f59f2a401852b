/** A console list's sort, page and filters in the page's URL (src/features/console/list-url.ts): what a shared link says is what it shows. */
import { describe, expect, it } from 'vitest';
import { listSize } from '#contract/list.ts';
import { listSearch, readListState, type ListStart } from '@/features/console/list-url.ts';

type Sort = 'created' | 'price';
const list: ListStart<Sort, { state: string; user: string }> = {
  columns: ['created', 'price'],
  start: { query: { sort: 'created', dir: 'desc', page: 1, size: listSize.default }, filter: { state: '', user: '' } },
};

describe('a list in the URL', () => {
  it('reads the start from an empty query string, and writes nothing for it', () => {
    expect(readListState('', list)).toEqual(list.start);
    expect(listSearch(list.start, list)).toBe('');
  });

  it('writes only what differs from the start, and reads it back the same', () => {
    const state = { query: { sort: 'price' as const, dir: 'asc' as const, page: 2, size: 50 }, filter: { state: 'paid', user: 'a&b=c ü' } };
    const search = listSearch(state, list);
    expect(search).toBe('?sort=price&dir=asc&page=2&size=50&state=paid&user=a%26b%3Dc+%C3%BC');
    expect(readListState(search, list)).toEqual(state);
    expect(listSearch({ ...list.start, query: { ...list.start.query, page: 3 } }, list)).toBe('?page=3');
  });

  it('keeps the page’s other parameters, and drops the list’s old ones', () => {
    const state = { ...list.start, query: { ...list.start.query, page: 2 } };
    expect(listSearch(state, list, '?key=20261128000000000001&page=9&state=paid')).toBe('?key=20261128000000000001&page=2');
  });

  it('reads a value the list does not know as the start’s', () => {
    const read = readListState('?sort=password&dir=sideways&page=0&size=100000&state=paid&extra=1', list);
    expect(read).toEqual({ query: list.start.query, filter: { state: 'paid', user: '' } });
    expect(readListState('?page=2.5&size=-1', list).query).toEqual(list.start.query);
    expect(readListState(`?page=100001&size=${listSize.max}`, list).query).toEqual({ ...list.start.query, size: listSize.max });
  });
});
