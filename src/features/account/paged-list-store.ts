/**
 * A paged list of the account centre (orders, the wallet's ledger,
 * redemptions): the page on show, loaded when the list is first shown and
 * replaced by another page on request. A page that fails to load leaves the
 * one on show and says why. Each list names its route in its own store file,
 * so a page loads only the contract of its own list.
 */
import { atom, onMount } from 'nanostores';
import { createAction } from '@/stores/action.ts';

/** What every page of a list carries (contract/paging.ts `paged`). */
export interface ListPage {
  Total: number;
  Page: number;
}

/** A list whose pages `load` fetches, the first page 1. */
export function createPagedList<P extends ListPage>(load: (page: number) => Promise<P>) {
  const action = createAction();
  /** The page on show; null until the first has loaded. */
  const $page = atom<P | null>(null);

  async function show(number: number): Promise<void> {
    const page = await action.run(() => load(number));
    if (page) $page.set(page);
  }

  onMount($page, () => {
    void show(1);
  });

  return { $page, $busy: action.$busy, $notice: action.$notice, show };
}
