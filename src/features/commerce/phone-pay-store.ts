/**
 * The phone's page after scanning (/wechatpay), free of any framework: the
 * payment sandbox's transaction the code named (`?pr=`), what the "customer"
 * can do with it as it stands, and doing it. Without a transaction the page
 * only tells the customer to use WeChat.
 */
import { atom, onMount } from 'nanostores';
import { paymentSandbox, type SandboxAction, type SandboxTransaction } from '#contract/dev.ts';
import type { Call } from '@/lib/api/client.ts';
import { createAction } from '@/stores/action.ts';

export interface PhonePayEnvironment {
  /** The sandbox is public: it plays the provider, not the customer's account. */
  call: Call;
  location: { readonly search: string };
}

/** What the "customer" can do with what was scanned, as it stands. */
export function actionsFor(transaction: SandboxTransaction): SandboxAction[] {
  if (transaction.Kind === 'contract') {
    if (transaction.State === 'NOTSIGNED') return ['approve', 'decline'];
    return transaction.State === 'SIGNED' ? ['failCharges', 'terminate'] : [];
  }
  if (transaction.State === 'NOTPAY') return ['approve', 'decline', 'expire', 'payTwice'];
  if (transaction.State === 'SUCCESS') return ['payTwice', 'failRefunds'];
  return transaction.State === 'REFUND' ? ['failRefunds'] : [];
}

export function createPhonePay(env: PhonePayEnvironment) {
  const prepay = new URLSearchParams(env.location.search).get('pr');
  const action = createAction();
  /** Undefined while it loads; null when there is none to show (no `?pr=`, or the sandbox does not know it). */
  const $transaction = atom<SandboxTransaction | null | undefined>(prepay ? undefined : null);
  /** The customer did something with it, and the sandbox took it. */
  const $done = atom(false);

  onMount($transaction, () => {
    if (prepay)
      env.call(paymentSandbox.transaction, { params: { id: prepay } }).then(
        (found) => $transaction.set(found),
        () => $transaction.set(null),
      );
  });

  async function act(chosen: SandboxAction): Promise<void> {
    const transaction = $transaction.get();
    if (!transaction) return;
    const updated = await action.run(() => env.call(paymentSandbox.act, { params: { id: transaction.Id }, body: { Action: chosen } }));
    if (updated) {
      $transaction.set(updated);
      $done.set(true);
    }
  }

  return { $transaction, $done, $busy: action.$busy, $notice: action.$notice, act };
}
