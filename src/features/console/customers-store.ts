/**
 * The console's customers area: one customer found by phone, e-mail, user id
 * or order number, with what support needs beside the profile — the wallet
 * and its ledger, and their orders — each read by the operators' command that
 * owns it (`users show`, `wallet show`, `order list --user`).
 */
import { atom } from 'nanostores';
import type { CommandResult } from '#contract/admin.ts';
import { createAction } from '@/stores/action.ts';
import { runCommand } from './console-store.ts';

type Of<N extends CommandResult['command']> = CommandResult & { command: N };

export interface CustomerView {
  user: NonNullable<Of<'users show'>['user']>;
  wallet: Of<'wallet show'>['wallet'];
  orders: Of<'order list'>['orders'];
}

/** The customer shown; null before a search or when none was found (the notice says so). */
export const $customer = atom<CustomerView | null>(null);
export const customerAction = createAction<'console.customers.notFound'>();

export async function findCustomer(query: string): Promise<void> {
  const key = query.trim();
  if (!key) return;
  await customerAction.run(async () => {
    $customer.set(null);
    const shown = await runCommand<'users show'>(['users', 'show', key]);
    if (!shown.user) return customerAction.refuse('console.customers.notFound', { query: key });
    const id = String(shown.user.id);
    const [wallet, orders] = await Promise.all([runCommand<'wallet show'>(['wallet', 'show', id]), runCommand<'order list'>(['order', 'list', '--user', id])]);
    $customer.set({ user: shown.user, wallet: wallet.wallet, orders: orders.orders });
  });
}
