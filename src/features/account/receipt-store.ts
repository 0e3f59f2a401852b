/**
 * A paid order's receipt (`order/receipt?key=`): read once when the page
 * shows it. An order that is not this account's, is not paid or whose key is
 * no order number at all has no receipt: the server does not tell them apart
 * to anyone but the order's owner, and the page says the same for each.
 */
import { onMount } from 'nanostores';
import { commerceCalls, type Receipt } from '#contract/commerce.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { orderByKey } from './order-by-key.ts';

/** Why there is no receipt to show: no key in the address, or no paid order of this account's by it. */
export type ReceiptMissing = 'account.receipt.missing' | 'account.receipt.notFound';

export function createReceipt(env: Pick<CenterEnvironment, 'call' | 'location'>) {
  const receipt = orderByKey<Receipt, ReceiptMissing>(env, (key) => env.call(commerceCalls.receipt, { params: { key } }), {
    noKey: 'account.receipt.missing',
    notFound: 'account.receipt.notFound',
  });
  // Read once, when the page shows it.
  onMount(receipt.$value, () => {
    if (receipt.key) void receipt.read(receipt.key);
  });
  return { key: receipt.key, $receipt: receipt.$value, $missing: receipt.$missing, $notice: receipt.$notice };
}
