/**
 * A paid order's receipt (`order/receipt?key=`): read once when the page
 * shows it. An order that is not this account's, is not paid or whose key is
 * no order number at all has no receipt: the server does not tell them apart
 * to anyone but the order's owner, and the page says the same for each.
 */
import { atom, onMount } from 'nanostores';
import { commerceCalls, type Receipt } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { createAction } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';

/** Why there is no receipt to show: no key in the address, or no paid order of this account's by it. */
export type ReceiptMissing = 'account.receipt.missing' | 'account.receipt.notFound';

export function createReceipt(env: Pick<CenterEnvironment, 'call' | 'location'>) {
  const key = new URLSearchParams(env.location.search).get('key');
  const action = createAction();
  /** The receipt; null until read. */
  const $receipt = atom<Receipt | null>(null);
  const $missing = atom<ReceiptMissing | null>(key ? null : 'account.receipt.missing');

  async function read(key: string): Promise<void> {
    try {
      $receipt.set(await env.call(commerceCalls.receipt, { params: { key } }));
    } catch (error) {
      if (error instanceof ApiFailure && (error.code === ErrorCode.NotFound || error.code === ErrorCode.BadRequest)) $missing.set('account.receipt.notFound');
      else await action.run(() => Promise.reject(error));
    }
  }

  onMount($receipt, () => {
    if (key) void read(key);
  });

  return { key, $receipt, $missing, $notice: action.$notice };
}
