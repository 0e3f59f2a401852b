/**
 * The console's customers area: every customer, searched, sorted and a page at
 * a time (`users list`), and one customer found by phone, e-mail, user id or order number, with what support needs beside the profile — the wallet
 * and its ledger, plan and auto-renewal agreements, their orders, redemptions
 * and raffle entries — each read by the operators' command that owns it
 * (`users show`, `wallet show`, `order list --user`, `cdkey redeemed`,
 * `raffle entered`).
 */
import { atom } from 'nanostores';
import type { ResultOf } from '#contract/command.ts';
import { activationCommands } from '#contract/commands/activation.ts';
import { commerceCommands } from '#contract/commands/commerce.ts';
import { identityCommands, userSorts } from '#contract/commands/identity.ts';
import { listSize } from '#contract/list.ts';
import { raffleCommands } from '#contract/commands/raffle.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';
import type { ListStart, ListState } from './list-url.ts';

export interface CustomerView {
  user: NonNullable<ResultOf<typeof identityCommands.show>['user']>;
  wallet: ResultOf<typeof commerceCommands.walletShow>['wallet'];
  /** Their latest orders (the first page of `order list --user`). */
  orders: ResultOf<typeof commerceCommands.orderList>['rows'];
  redemptions: NonNullable<ResultOf<typeof activationCommands.redeemed>['redemptions']>;
  raffles: NonNullable<ResultOf<typeof raffleCommands.entered>['entries']>;
}

export type UsersPage = Omit<ResultOf<typeof identityCommands.list>, 'command'>;
export type UserSort = (typeof userSorts)[number];
export type UserFilter = { search: string; since: string; until: string };

/** The list as it opens: every customer, newest first; the page's URL says otherwise (list-url.ts). */
export const customersList: ListStart<UserSort, UserFilter> = {
  columns: userSorts,
  start: { query: { sort: 'created', dir: 'desc', page: 1, size: listSize.default }, filter: { search: '', since: '', until: '' } },
};

export function createCustomers(run: RunCommand) {
  /** The customer shown; null before a search or when none was found (the notice says so). */
  const $customer = atom<CustomerView | null>(null);
  /** A page of the list of customers (`users list`); null while the first loads. */
  const $users = atom<UsersPage | null>(null);
  const action = createAction<'console.customers.notFound' | 'console.customers.sessionEnded'>();
  const listAction = createAction();

  async function list({ query, filter }: ListState<UserSort, UserFilter>): Promise<void> {
    // What the form leaves empty is no condition.
    const args = { ...query, search: filter.search.trim() || undefined, since: filter.since || undefined, until: filter.until || undefined };
    await listAction.run(async () => {
      const { rows, total, page, size } = await run(identityCommands.list, args);
      $users.set({ rows, total, page, size });
    });
  }

  async function find(query: string): Promise<void> {
    const key = query.trim();
    if (!key) return;
    await action.run(async () => {
      $customer.set(null);
      const shown = await run(identityCommands.show, { user: key });
      if (!shown.user) return action.refuse('console.customers.notFound', { query: key });
      const user = String(shown.user.id);
      const [wallet, orders, redeemed, entered] = await Promise.all([
        run(commerceCommands.walletShow, { user }),
        run(commerceCommands.orderList, { user }),
        run(activationCommands.redeemed, { user }),
        run(raffleCommands.entered, { user }),
      ]);
      $customer.set({
        user: shown.user,
        wallet: wallet.wallet,
        orders: orders.rows,
        redemptions: redeemed.redemptions ?? [],
        raffles: entered.entries ?? [],
      });
    });
  }

  /** Signs one of the customer's devices out (`session end`), then shows them as they are now. */
  async function endSession(sessionId: string): Promise<void> {
    const id = $customer.get()?.user.id;
    if (id === undefined) return;
    await action.run(async () => {
      await run(identityCommands.endSession, { sessionId });
      const shown = await run(identityCommands.show, { user: String(id) });
      const current = $customer.get();
      if (shown.user && current) $customer.set({ ...current, user: shown.user });
    }, 'console.customers.sessionEnded');
  }

  return {
    $customer,
    $users,
    $busy: action.$busy,
    $notice: action.$notice,
    listOutcome: { $busy: listAction.$busy, $notice: listAction.$notice },
    find,
    list,
    endSession,
  };
}
