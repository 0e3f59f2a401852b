/**
 * Donating from the wallet (account centre `redemption/donate`): the balance
 * and the user's donations, loaded when first shown; the amount (a preset or
 * one typed) and the opt-in name, checked before the confirmation is asked
 * for; then the donation, after which the new balance and the donation show.
 * A name shown on the sponsor page can be taken off again.
 */
import { atom, computed, onMount } from 'nanostores';
import { commerceCalls, payCurrency } from '#contract/commerce.ts';
import { donationCalls, donationRules, type Donation } from '#contract/donation.ts';
import { formatPrice } from '#contract/facts.ts';
import { minorOf } from '@/lib/money-input.ts';
import { createAction } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';

export type DonateKey =
  'account.donate.amountHint' | 'account.donate.nameNeeded' | 'account.donate.notEnough' | 'account.donate.thanks' | 'account.donate.nameRemoved';

export interface DonateOptions {
  /** The page's locale: a refusal names the bounds as money in it. */
  locale: string;
}

export function createDonation(env: Pick<CenterEnvironment, 'call' | '$user'>, options: DonateOptions) {
  const action = createAction<DonateKey>();
  /** The wallet's balance in fen; null until loaded. */
  const $balance = atom<number | null>(null);
  const $donations = atom<Donation[]>([]);
  /** The chosen preset amount; null while another amount is typed. */
  const $preset = atom<number | null>(donationRules.amounts[0]);
  const $custom = atom('');
  /** Whether the user wants to be thanked by name on the sponsor page. */
  const $named = atom(false);
  const $name = atom('');
  /** The amount in fen: the preset, or the one typed (null when it is not an amount). */
  const $amount = computed([$preset, $custom], (preset, custom) => preset ?? minorOf(custom, payCurrency));
  const $amountOk = computed($amount, (amount) => amount !== null && amount >= donationRules.minimum && amount <= donationRules.maximum);

  async function load(): Promise<void> {
    await action.run(async () => {
      const [summary, mine] = await Promise.all([env.call(commerceCalls.summary), env.call(donationCalls.mine)]);
      $balance.set(summary.Balance);
      $donations.set(mine);
    });
  }

  onMount($balance, () => {
    void load();
    // The name offered is the nickname, once the user is known, unless one was typed already.
    return env.$user.subscribe((user) => {
      if (user && !$name.get()) $name.set(user.NickName.slice(0, donationRules.nameMaxLength));
    });
  });

  /** Checks the form; true when the donation may be confirmed. */
  function check(): boolean {
    const amount = $amount.get();
    const name = $name.get().trim();
    const money = (fen: number) => formatPrice(fen, options.locale);
    if (!$amountOk.get()) action.refuse('account.donate.amountHint', { min: money(donationRules.minimum), max: money(donationRules.maximum) });
    else if ($named.get() && (name.length === 0 || name.length > donationRules.nameMaxLength)) action.refuse('account.donate.nameNeeded');
    else if (amount! > ($balance.get() ?? 0)) action.refuse('account.donate.notEnough');
    else return true;
    return false;
  }

  /** Gives the amount, once confirmed. */
  async function give(): Promise<void> {
    if (action.$busy.get() || !check()) return;
    const body = { Amount: $amount.get()!, Name: $named.get() ? $name.get().trim() : null };
    const given = await action.run(() => env.call(donationCalls.donate, { body }), 'account.donate.thanks');
    if (!given) return;
    $balance.set(given.Balance);
    $donations.set([given.Donation, ...$donations.get()]);
  }

  /** Takes the user's name off one of their donations (and so off the sponsor page). */
  async function unname(id: number): Promise<void> {
    if (action.$busy.get()) return;
    const changed = await action.run(() => env.call(donationCalls.removeName, { params: { id } }), 'account.donate.nameRemoved');
    if (changed) $donations.set($donations.get().map((entry) => (entry.Id === changed.Id ? changed : entry)));
  }

  return {
    $balance,
    $donations,
    $preset,
    $custom,
    $named,
    $name,
    $amount,
    $amountOk,
    $busy: action.$busy,
    $notice: action.$notice,
    check,
    give,
    unname,
  };
}
