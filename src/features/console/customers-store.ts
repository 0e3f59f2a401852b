/**
 * The console's customers area: one customer found by phone, e-mail, user id
 * or order number, with what support needs beside the profile — the wallet
 * and its ledger, plan and auto-renewal agreements, their orders, redemptions
 * and raffle entries — each read by the operators' command that owns it
 * (`users show`, `wallet show`, `order list --user`, `cdkey redeemed`,
 * `raffle entered`).
 */
import { atom } from 'nanostores';
import type { ResultOf } from '#contract/command.ts';
import { activationCommands } from '#contract/commands/activation.ts';
import { commerceCommands } from '#contract/commands/commerce.ts';
import { identityCommands } from '#contract/commands/identity.ts';
import { raffleCommands } from '#contract/commands/raffle.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';

export interface CustomerView {
  user: NonNullable<ResultOf<typeof identityCommands.show>['user']>;
  wallet: ResultOf<typeof commerceCommands.walletShow>['wallet'];
  orders: ResultOf<typeof commerceCommands.orderList>['orders'];
  redemptions: NonNullable<ResultOf<typeof activationCommands.redeemed>['redemptions']>;
  raffles: NonNullable<ResultOf<typeof raffleCommands.entered>['entries']>;
}

export function createCustomers(run: RunCommand) {
  /** The customer shown; null before a search or when none was found (the notice says so). */
  const $customer = atom<CustomerView | null>(null);
  const action = createAction<'console.customers.notFound' | 'console.customers.sessionEnded'>();

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
        orders: orders.orders,
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

  return { $customer, $busy: action.$busy, $notice: action.$notice, find, endSession };
}
