/**
 * A console list's sort, page and filters kept in the page's query string, so
 * a link to the list shows what its sender saw: `?sort=price&dir=asc&page=2&state=paid`.
 * What is as the list starts is left out; a value the list does not know
 * (a column it cannot sort by, a page of letters) reads as the start's.
 * Other parameters of the page (an open order's `key`) are kept as they are.
 */
import { useEffect, useState } from 'react';
import { listSize, maxPage, type ListQuery, type SortDirection } from '#contract/list.ts';

/** A list's filters: each a string, '' for none (as a form's fields give them). */
export type ListFilter = Record<string, string>;

export interface ListState<C extends string, F extends ListFilter> {
  query: ListQuery<C>;
  filter: F;
}

/** The parameters the query part of every list takes; a filter named so would be lost. */
const queryParams = ['sort', 'dir', 'page', 'size'] as const;

/** How a list starts, and the columns it sorts by. */
export interface ListStart<C extends string, F extends ListFilter> {
  columns: readonly C[];
  start: ListState<C, F>;
}

const wholeIn = (value: string | null, min: number, max: number): number | null =>
  value !== null && /^\d{1,9}$/.test(value) && Number(value) >= min && Number(value) <= max ? Number(value) : null;

/** The list's state the query string (`location.search`) says. */
export function readListState<C extends string, F extends ListFilter>(search: string, { columns, start }: ListStart<C, F>): ListState<C, F> {
  const params = new URLSearchParams(search);
  const sort = params.get('sort');
  const dir = params.get('dir');
  const filter = { ...start.filter };
  for (const name of Object.keys(filter) as Array<keyof F & string>) {
    const value = params.get(name);
    if (value !== null) filter[name] = value as F[typeof name];
  }
  return {
    query: {
      sort: columns.find((column) => column === sort) ?? start.query.sort,
      dir: dir === 'asc' || dir === 'desc' ? (dir satisfies SortDirection) : start.query.dir,
      page: wholeIn(params.get('page'), 1, maxPage) ?? start.query.page,
      size: wholeIn(params.get('size'), 1, listSize.max) ?? start.query.size,
    },
    filter,
  };
}

/** The query string for the list's state, with `search`'s other parameters kept: '' when all is as the list starts. */
export function listSearch<C extends string, F extends ListFilter>(state: ListState<C, F>, { start }: Pick<ListStart<C, F>, 'start'>, search = ''): string {
  const params = new URLSearchParams(search);
  for (const name of [...queryParams, ...Object.keys(start.filter)]) params.delete(name);
  for (const name of queryParams) if (state.query[name] !== start.query[name]) params.set(name, String(state.query[name]));
  for (const [name, value] of Object.entries(state.filter)) if (value !== start.filter[name]) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** What a table asks of its list: the sort and page it is at, and another sort or page. */
export interface ListControl<C extends string> {
  state: { query: ListQuery<C> };
  sort(sort: C, dir: SortDirection): void;
  page(page: number): void;
}

/**
 * A list's state held in the URL: read on load and when the browser goes back or forward (popstate),
 * each change pushed as a new history entry (back undoes a sort or a page); `load` fetches what it says.
 */
export function useListUrl<C extends string, F extends ListFilter>(list: ListStart<C, F>, load: (state: ListState<C, F>) => void) {
  const [state, setState] = useState(() => readListState(location.search, list));
  useEffect(() => {
    load(state);
    const back = () => {
      const read = readListState(location.search, list);
      setState(read);
      load(read);
    };
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
    // Once: the list's definition and loader do not change while the page is open.
  }, []);
  const go = (next: ListState<C, F>) => {
    history.pushState(null, '', `${location.pathname}${listSearch(next, list, location.search)}${location.hash}`);
    setState(next);
    load(next);
  };
  return {
    state,
    sort: (sort: C, dir: SortDirection) => go({ ...state, query: { ...state.query, sort, dir, page: 1 } }),
    page: (page: number) => go({ ...state, query: { ...state.query, page } }),
    /** New filters start again at the first page. */
    filter: (filter: F) => go({ ...state, filter, query: { ...state.query, page: 1 } }),
  };
}
