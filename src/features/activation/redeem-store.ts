/**
 * Redeeming a cdkey, free of any framework: the key grouped as it is typed,
 * its shape checked here (contract/cdkey-format.ts) so a typo is caught before
 * the server is asked, and what the server granted. Its refusals come in the
 * server's words.
 */
import { atom } from 'nanostores';
import { activationCalls } from '#contract/activation.ts';
import type { ResponseOf } from '#contract/api.ts';
import { cdkeyLength, cdkeyShape, formatCdkey, normalizeCdkey } from '#contract/cdkey-format.ts';
import type { Call } from '@/lib/api/client.ts';
import { createAction } from '@/stores/action.ts';

export interface RedeemEnvironment {
  /** Calls as the logged-in user. */
  authCall: Call;
}

export type Redeemed = ResponseOf<typeof activationCalls.redeem>;

/** The form's own refusals, before the server is asked. */
export type RedeemRefusal = 'activate.cdkey.typo' | 'activate.cdkey.incomplete';

export function createRedeemCdkey(env: RedeemEnvironment) {
  const action = createAction<RedeemRefusal>();
  /** The key as the field shows it: in capitals, in its groups, no longer than a key. */
  const $typed = atom('');
  /** What the last key redeemed granted. */
  const $redeemed = atom<Redeemed | null>(null);

  function type(value: string): void {
    $typed.set(formatCdkey(normalizeCdkey(value).slice(0, cdkeyLength)));
  }

  async function submit(): Promise<void> {
    if (action.$busy.get()) return;
    $redeemed.set(null);
    const typed = $typed.get();
    const shape = cdkeyShape(typed);
    if (shape !== 'ok') return action.refuse(shape === 'checksum' ? 'activate.cdkey.typo' : 'activate.cdkey.incomplete');
    const answer = await action.run(() => env.authCall(activationCalls.redeem, { body: { Key: typed } }));
    if (answer) {
      $redeemed.set(answer);
      $typed.set('');
    }
  }

  return { $typed, $redeemed, $busy: action.$busy, $notice: action.$notice, type, submit };
}
