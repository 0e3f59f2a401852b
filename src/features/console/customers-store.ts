/**
 * The console's customers area: one customer found by phone, e-mail, user id
 * or order number, with what support needs beside the profile — the wallet
 * and its ledger, plan and auto-renewal agreements, their orders, redemptions
 * and raffle entries — each read by the operators' command that owns it
 * (`users show`, `wallet show`, `order list --user`, `cdkey redeemed`,
 * `raffle entered`).
 */
import { atom } from 'nanostores';
import type { CommandResult } from '#contract/admin.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';

type Of<N extends CommandResult['command']> = CommandResult & { command: N };

export interface CustomerView {
  user: NonNullable<Of<'users show'>['user']>;
  wallet: Of<'wallet show'>['wallet'];
  orders: Of<'order list'>['orders'];
  redemptions: NonNullable<Of<'cdkey redeemed'>['redemptions']>;
  raffles: NonNullable<Of<'raffle entered'>['entries']>;
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
      const shown = await run<'users show'>(['users', 'show', key]);
      if (!shown.user) return action.refuse('console.customers.notFound', { query: key });
      const id = String(shown.user.id);
      const [wallet, orders, redeemed, entered] = await Promise.all([
        run<'wallet show'>(['wallet', 'show', id]),
        run<'order list'>(['order', 'list', '--user', id]),
        run<'cdkey redeemed'>(['cdkey', 'redeemed', id]),
        run<'raffle entered'>(['raffle', 'entered', id]),
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
      await run<'session end'>(['session', 'end', sessionId]);
      const shown = await run<'users show'>(['users', 'show', String(id)]);
      const current = $customer.get();
      if (shown.user && current) $customer.set({ ...current, user: shown.user });
    }, 'console.customers.sessionEnded');
  }

  return { $customer, $busy: action.$busy, $notice: action.$notice, find, endSession };
}
