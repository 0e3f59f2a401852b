/**
 * The pay page's logic, free of any framework: the order (read whenever the
 * live order says so), the ways to pay it that the server offers and what
 * starting each answers, the wallet's balance, the time left to pay, and what
 * the page shows as it stands. What touches the world — the API, the live order, the address bar,
 * the screen, the clock — comes in as a `PayEnvironment`, so tests drive the
 * page in Node.
 */
import { atom, computed, onMount, type ReadableAtom } from 'nanostores';
import { commerceCalls, outcomeOfRefusal, type OrderDetail, type OrderNotice, type PayMethod, type PayOutcome, type Payment } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { Call } from '@/lib/api/client.ts';
import { ApiFailure, failureMessage } from '@/lib/api/errors.ts';
import { createAction } from '@/stores/action.ts';

export interface PayEnvironment {
  /** Calls as the logged-in user. */
  authCall: Call;
  /** Says when to read the order: at once or once the hub connects, then on each push or poll (stores/orders.ts). Returns the way to stop. */
  followOrder(key: string, changed: (notice: OrderNotice | null) => void): () => void;
  location: { readonly href: string; readonly search: string; assign(url: string): void };
  /** Whether the screen is a phone's (or worked by touch), where paying in the provider's app on the device itself leads. */
  phoneScreen(): boolean;
  /** Runs `callback` after `ms`; the returned function cancels it. */
  setTimer(callback: () => void, ms: number): () => void;
  now(): number;
}

/** A payment provider: paid by scanning its code, or in its app on the phone. */
export type PayProvider = Exclude<PayMethod, 'wallet'>;

/** Whether `method` is a provider's (not the wallet, a cdkey or none). */
export const isProvider = (method: string | null): method is PayProvider => method === 'wechatpay' || method === 'alipay';

/** Where a settled order leads back to: what was bought. */
export const boughtPath = (order: OrderDetail) => (order.Item.Kind === 'membership' ? '/account/center/steam/cloudidea' : '/recharge/steam');

/** The page's lead line, by the order's state, the ways to pay it and the screen. */
export type PayIntro = 'pay.introPhone' | 'pay.intro' | 'pay.introWallet' | 'pay.introNoWay' | 'pay.introPaid' | 'pay.introUnpaid';

/** What the page shows of an order, as it stands. */
export interface PayView {
  /** The outcome to show: the server's, else that of a refusal to start paying. */
  outcome: PayOutcome | null;
  /** Still to be paid: the ways to pay are offered. */
  open: boolean;
  settled: boolean;
  /** An auto-renewal agreement's first period: signed by scanning WeChat Pay's code, never from the wallet nor in the app on the phone. */
  renewing: boolean;
  /** The providers the order can be paid with here, in the order to offer them. */
  providers: PayProvider[];
  /** The wallet can pay it. */
  wallet: boolean;
  /** Paying in a provider's app on this device leads; the codes to scan from another device follow. */
  phoneFirst: boolean;
  intro: PayIntro;
  /** Until the order closes by itself. */
  leftMs: number;
  /** The balance is known and does not cover the price. */
  balanceShort: boolean;
}

/** One pay page, for the order its address names: its state as stores, and the actions the island calls. */
export function createPayPage(env: PayEnvironment) {
  const query = new URLSearchParams(env.location.search);
  const key = query.get('key') ?? '';
  /** From the desktop client: start paying with this method at once. */
  const requestedType = query.get('type');
  /** The provider the customer came back from (`from=`, set by the server's way back), which proves nothing: the page says it is checking. */
  const from = query.get('from');
  const returned = isProvider(from) ? from : null;
  const onPhone = env.phoneScreen();

  const action = createAction();
  const $order = atom<OrderDetail | null>(null);
  /** No such order of this user's. */
  const $missing = atom(false);
  const $payment = atom<Payment | null>(null);
  /** A refusal to start paying that is a payment outcome of its own (maintenance, …). */
  const $refusal = atom<PayOutcome | null>(null);
  const $balance = atom<number | null>(null);
  const $now = atom(env.now());

  const $view: ReadableAtom<PayView | null> = computed([$order, $refusal, $balance, $now], (order, refusal, balance, now): PayView | null => {
    if (!order) return null;
    const outcome = order.Outcome ?? refusal;
    const open = (order.State === 'created' || order.State === 'paying') && !outcome;
    const settled = order.State === 'paid' || order.State === 'fulfilled' || order.State === 'refunded';
    const renewing = order.Agreement !== null;
    const providers = order.PayWith.filter(isProvider);
    const wallet = order.PayWith.includes('wallet');
    const phoneFirst = onPhone && !renewing && providers.length > 0;
    const ways: PayIntro = phoneFirst ? 'pay.introPhone' : providers.length ? 'pay.intro' : wallet ? 'pay.introWallet' : 'pay.introNoWay';
    const intro = open ? ways : settled ? 'pay.introPaid' : 'pay.introUnpaid';
    const leftMs = Date.parse(order.ExpiresAt) - now;
    return { outcome, open, settled, renewing, providers, wallet, phoneFirst, intro, leftMs, balanceShort: balance !== null && balance < order.Price };
  });

  /** Keeps what a call answered about the order over what the page had read. */
  const merge = (changed: Partial<OrderDetail>) => {
    const current = $order.get();
    if (current) $order.set({ ...current, ...changed });
  };

  async function load(): Promise<OrderDetail | null> {
    try {
      const loaded = await env.authCall(commerceCalls.order, { params: { key } });
      $order.set(loaded);
      return loaded;
    } catch (error) {
      if (error instanceof ApiFailure && (error.code === ErrorCode.NotFound || error.code === ErrorCode.BadRequest)) $missing.set(true);
      // Not one of the page's actions: a failed read says so where the actions' outcomes show, without making the page busy.
      else action.$notice.set({ kind: 'error', ...failureMessage(error) });
      return null;
    }
  }

  /** Runs a call that starts paying; a refusal that is a payment outcome of its own is shown as that outcome. */
  async function starting<T>(work: () => Promise<T>): Promise<T | null | undefined> {
    $refusal.set(null);
    return action.run(async () => {
      try {
        return await work();
      } catch (error) {
        const outcome = error instanceof ApiFailure && error.code !== undefined ? outcomeOfRefusal[error.code] : undefined;
        if (!outcome) throw error;
        $refusal.set(outcome);
        return null;
      }
    });
  }

  /** Starts paying with `method`: a provider's code to scan, or the wallet at once. `method` may be one the desktop client asked for, which the server may refuse. */
  async function pay(method: string): Promise<void> {
    const started = await starting(() => env.authCall(commerceCalls.pay, { params: { key }, body: { Method: method } }));
    if (!started) return;
    $payment.set(started);
    merge(started.Order);
  }

  /** Opens the provider's page for paying in its app on this phone, as the server gave it: it already leads back here, marked as coming back. */
  async function payInApp(method: PayProvider): Promise<void> {
    const started = await starting(() => env.authCall(commerceCalls.payOnPhone, { params: { key }, body: { Method: method } }));
    if (started) env.location.assign(started.PayUrl);
  }

  async function cancel(): Promise<void> {
    const changed = await action.run(() => env.authCall(commerceCalls.cancel, { params: { key } }));
    if (changed) merge(changed);
  }

  /** What the first read of the order starts. */
  function begin(loaded: OrderDetail): void {
    if (loaded.State !== 'created' && loaded.State !== 'paying') return;
    // The balance only decides whether the wallet can pay: without it, the wallet button stays offered.
    if (loaded.PayWith.includes('wallet'))
      env.authCall(commerceCalls.summary).then(
        (summary) => $balance.set(summary.Balance),
        () => {},
      );
    if (requestedType) return void pay(requestedType);
    // The same code again after a reload, where the code leads; on a phone the customer asks for it.
    const method = loaded.Method;
    if (!onPhone && loaded.State === 'paying' && isProvider(method) && loaded.PayWith.includes(method)) void pay(method);
  }

  onMount($order, () => {
    if (!key) return;
    let begun = false;
    // followOrder says when to read the order, the first time included: one read per page load.
    const stopFollowing = env.followOrder(key, () => {
      void load().then((loaded) => {
        if (!loaded || begun) return;
        begun = true;
        begin(loaded);
      });
    });
    let stopTicking = () => {};
    const tick = () => {
      $now.set(env.now());
      stopTicking = env.setTimer(tick, 1000);
    };
    tick();
    return () => {
      stopFollowing();
      stopTicking();
    };
  });

  return {
    key,
    returned,
    $order,
    $missing,
    $payment,
    $view,
    $balance,
    $busy: action.$busy,
    $notice: action.$notice,
    pay,
    payInApp,
    cancel,
  };
}
