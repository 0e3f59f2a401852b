/**
 * The auto-renewal agreements of the account centre: the list, loaded when
 * first shown, and cancelling one, after which it shows as the server answers
 * it (canceled, with its end).
 */
import { atom, onMount } from 'nanostores';
import { agreementCalls, type Agreement } from '#contract/agreements.ts';
import { createAction } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';

export function createAgreements(env: Pick<CenterEnvironment, 'call'>) {
  const action = createAction<'account.agreements.canceled'>();
  /** The user's agreements; null until loaded. */
  const $agreements = atom<Agreement[] | null>(null);

  async function load(): Promise<void> {
    const agreements = await action.run(() => env.call(agreementCalls.list));
    if (agreements) $agreements.set(agreements);
  }

  onMount($agreements, () => {
    void load();
  });

  /** Cancels one agreement (the island has asked the user first). */
  async function cancel(key: string): Promise<void> {
    if (action.$busy.get()) return;
    const ended = await action.run(() => env.call(agreementCalls.cancel, { params: { key } }), 'account.agreements.canceled');
    if (ended) $agreements.set(($agreements.get() ?? []).map((known) => (known.Key === ended.Key ? ended : known)));
  }

  /** Whether an agreement can still be cancelled: nothing ends one that has ended. */
  const cancellable = (agreement: Agreement) => agreement.State === 'active' || agreement.State === 'pending';

  return { $agreements, $busy: action.$busy, $notice: action.$notice, cancel, cancellable };
}
