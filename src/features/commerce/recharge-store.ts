/**
 * The Steam wallet recharge form's logic, free of any framework: the
 * recharge products (one per wallet currency), a preset or custom amount
 * within the product's bounds, the Steam account it goes to (the linked one,
 * or one typed: a friend code, SteamID64 or trade URL), the price in yuan, the
 * checks in the order the customer meets them, and the new order, which goes
 * on to the pay page.
 */
import { atom, computed, onMount, type ReadableAtom } from 'nanostores';
import { commerceCalls, rechargePrice, steamTargetOf, type Product } from '#contract/commerce.ts';
import { formatMoney } from '#contract/facts.ts';
import type { UserInfo } from '#contract/identity.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import type { Call } from '@/lib/api/client.ts';
import { minorOf } from '@/lib/money-input.ts';
import { createAction } from '@/stores/action.ts';

export interface RechargeEnvironment {
  /** Public calls (the catalogue). */
  call: Call;
  /** Calls as the logged-in user. */
  authCall: Call;
  session: { $user: ReadableAtom<UserInfo | null> };
  location: { assign(url: string): void };
}

/** The form's own refusals, before the server is asked. */
export type RechargeRefusal = 'recharge.amountInvalid' | 'recharge.targetInvalid' | 'recharge.noLinked';

/** A recharge product with everything a recharge needs (one without is not offered). */
type Recharge = Product & { Currency: string; RatePpm: number; MinAmount: number; MaxAmount: number };

const isComplete = (product: Product | undefined): product is Recharge =>
  Boolean(product?.Currency && product.RatePpm && product.MinAmount !== null && product.MaxAmount !== null);

/** The form as it stands: the product chosen, where the money goes and what it costs. */
export interface RechargeChoice {
  product: Recharge;
  /** The customer's linked Steam account, if any. */
  steam: UserInfo['ExternalAccounts'][number] | null;
  /** The recharge goes to the linked account. */
  linked: boolean;
  /** In the wallet currency's smallest unit; null when what was typed is not an amount. */
  amount: number | null;
  amountOk: boolean;
  /** The SteamID64 the recharge goes to; null when what was typed names no account. */
  steamId: string | null;
  /** In fen, once the amount is right. */
  price: number | null;
}

export function createRechargeForm(env: RechargeEnvironment, options: { locale: LocaleCode }) {
  const action = createAction<RechargeRefusal>();
  /** The recharge products, once read. */
  const $products = atom<Product[] | null>(null);
  const $code = atom('');
  /** The preset amount chosen; null when a custom amount is typed. */
  const $preset = atom<number | null>(null);
  const $custom = atom('');
  /** To the linked Steam account (when there is one) rather than one typed. */
  const $toLinked = atom(true);
  const $target = atom('');

  const $choice: ReadableAtom<RechargeChoice | null> = computed(
    [$products, $code, $preset, $custom, $toLinked, $target, env.session.$user],
    (products, code, preset, custom, toLinked, target, user) => {
      const product = products?.find((candidate) => candidate.Code === code);
      if (!isComplete(product)) return null;
      const steam = user?.ExternalAccounts.find((account) => account.Provider === 'steam') ?? null;
      const linked = steam !== null && toLinked;
      const amount = preset ?? minorOf(custom, product.Currency);
      const amountOk = amount !== null && (product.Presets.includes(amount) || (amount >= product.MinAmount && amount <= product.MaxAmount));
      const steamId = linked ? steam.Subject : steamTargetOf(target);
      return { product, steam, linked, amount, amountOk, steamId, price: amountOk ? rechargePrice(amount, product.RatePpm) : null };
    },
  );

  onMount($products, () => {
    void action.run(async () => {
      const all = (await env.call(commerceCalls.products)).filter((product) => product.Kind === 'steamRecharge');
      $products.set(all);
      $code.set(all[0]?.Code ?? '');
      $preset.set(all[0]?.Presets[0] ?? null);
    });
  });

  /** Another wallet currency: its first preset amount, and nothing typed. */
  function selectProduct(code: string): void {
    const next = $products.get()?.find((candidate) => candidate.Code === code);
    $code.set(code);
    $preset.set(next?.Presets[0] ?? null);
    $custom.set('');
  }

  async function submit(): Promise<void> {
    const choice = $choice.get();
    if (!choice || action.$busy.get()) return;
    const { product, steam, linked, amount, amountOk, steamId } = choice;
    if (!amountOk || amount === null) {
      const money = (minor: number) => formatMoney(minor, product.Currency, options.locale);
      return action.refuse('recharge.amountInvalid', { min: money(product.MinAmount), max: money(product.MaxAmount) });
    }
    if (!steamId) return action.refuse(steam ? 'recharge.targetInvalid' : 'recharge.noLinked');
    const order = await action.run(() =>
      env.authCall(commerceCalls.createOrder, { body: { Product: product.Code, Amount: amount, ...(linked ? {} : { Target: $target.get().trim() }) } }),
    );
    if (order) env.location.assign(`${localizePath(options.locale, '/payment')}?key=${order.Key}`);
  }

  return {
    $products,
    $code,
    $preset,
    $custom,
    $toLinked,
    $target,
    $choice,
    $busy: action.$busy,
    $notice: action.$notice,
    selectProduct,
    submit,
  };
}
