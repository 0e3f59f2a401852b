/**
 * The pay page's store (src/features/commerce/pay-store.ts), driven through
 * its actions in Node: the order read whenever the live order says so, the
 * ways to pay it the server offers (`PayWith`), what the first read starts,
 * paying by either provider's code, from the wallet and in either provider's
 * app on the phone, refusals that are payment outcomes, cancelling, and the
 * time left on the fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { commerceCalls, type Payment } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { createPayPage } from '@/features/commerce/pay-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { getCommerceWorld, order, orderDetail } from './commerce-world.ts';

const key = order.Key;
const payment = (changes: Partial<Payment['Order']> = {}): Payment => ({
  Order: { ...order, State: 'paying', Method: 'wechatpay', ...changes },
  CodeUrl: changes.Method === 'alipay' ? 'https://qr.alipay.com/bax01234' : 'weixin://wxpay/bizpayurl?pr=abc',
  QrSvg: '<svg/>',
});

/** A page as the island opens it: mounted, its order read once. */
async function openPage(world: ReturnType<typeof getCommerceWorld>) {
  const page = createPayPage(world.env);
  const unbind = [page.$order.listen(() => {}), page.$view.listen(() => {})];
  await world.changed(key);
  return { page, stop: () => unbind.forEach((off) => off()) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-01-01T00:05:00.000Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('opening the pay page', () => {
  it('reads its order when the live order says so, offers the ways to pay and asks for the balance', async () => {
    const world = getCommerceWorld({ search: `?key=${key}` });
    world.replies.set(commerceCalls.order, () => orderDetail());
    world.replies.set(commerceCalls.summary, () => ({ Balance: 1000, MembershipUntil: null }));
    const { page } = await openPage(world);

    expect(world.env.followOrder).toHaveBeenCalledWith(key, expect.any(Function));
    expect(world.calls.map(({ route, auth }) => ({ route, auth }))).toEqual([
      { route: commerceCalls.order, auth: true },
      { route: commerceCalls.summary, auth: true },
    ]);
    expect(world.calls[0]!.params).toEqual({ key });
    expect(page.$order.get()?.Key).toBe(key);
    expect(page.$balance.get()).toBe(1000);
    expect(page.$view.get()).toMatchObject({ open: true, outcome: null, intro: 'pay.intro', phoneFirst: false, balanceShort: true, leftMs: 10 * 60_000 });
  });

  it.each([
    { PayWith: ['wechatpay', 'wallet'], providers: ['wechatpay'], wallet: true, computer: 'pay.intro', phone: 'pay.introPhone' },
    { PayWith: ['alipay', 'wallet'], providers: ['alipay'], wallet: true, computer: 'pay.intro', phone: 'pay.introPhone' },
    { PayWith: ['wechatpay', 'alipay', 'wallet'], providers: ['wechatpay', 'alipay'], wallet: true, computer: 'pay.intro', phone: 'pay.introPhone' },
    { PayWith: ['alipay', 'wechatpay'], providers: ['alipay', 'wechatpay'], wallet: false, computer: 'pay.intro', phone: 'pay.introPhone' },
    { PayWith: ['wallet'], providers: [], wallet: true, computer: 'pay.introWallet', phone: 'pay.introWallet' },
    { PayWith: [], providers: [], wallet: false, computer: 'pay.introNoWay', phone: 'pay.introNoWay' },
  ] as const)('offers exactly the ways the server gives: $PayWith', async ({ PayWith, providers, wallet, computer, phone }) => {
    for (const [onPhone, intro] of [
      [false, computer],
      [true, phone],
    ] as const) {
      const world = getCommerceWorld({ search: `?key=${key}`, phone: onPhone });
      world.replies.set(commerceCalls.order, () => orderDetail({ PayWith: [...PayWith] }));
      world.replies.set(commerceCalls.summary, () => ({ Balance: 5000, MembershipUntil: null }));
      const { page } = await openPage(world);
      // Only a phone with a provider to pay in leads with the app; the wallet alone is paid the same way everywhere.
      expect(page.$view.get()).toMatchObject({ providers, wallet, intro, phoneFirst: onPhone && providers.length > 0 });
      // The balance is asked for only where the wallet is offered.
      expect(world.calls.map(({ route }) => route)).toEqual(wallet ? [commerceCalls.order, commerceCalls.summary] : [commerceCalls.order]);
    }
  });

  it('reads the order again on each change but starts paying only once', async () => {
    const world = getCommerceWorld({ search: `?key=${key}&type=wechatpay` });
    world.replies.set(commerceCalls.order, () => orderDetail());
    world.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: null }));
    world.replies.set(commerceCalls.pay, () => payment());
    const { page } = await openPage(world);
    // A poll before the payment is notified: the order is being paid, and the code stays as it is.
    world.replies.set(commerceCalls.order, () => orderDetail({ State: 'paying', Method: 'wechatpay' }));
    await world.changed(key);
    world.replies.set(commerceCalls.order, () => orderDetail({ State: 'fulfilled', Outcome: 'successful', Method: 'wechatpay' }));
    await world.changed(key);

    expect(world.calls.map(({ route }) => route)).toEqual([
      commerceCalls.order,
      commerceCalls.summary,
      commerceCalls.pay,
      commerceCalls.order,
      commerceCalls.order,
    ]);
    expect(world.calls[2]!.body).toEqual({ Method: 'wechatpay' });
    expect(page.$view.get()).toMatchObject({ open: false, settled: true, outcome: 'successful', intro: 'pay.introPaid' });
  });

  it('starts Alipay at once when the desktop client asks for it', async () => {
    const world = getCommerceWorld({ search: `?key=${key}&type=alipay` });
    world.replies.set(commerceCalls.order, () => orderDetail());
    world.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: null }));
    world.replies.set(commerceCalls.pay, () => payment({ Method: 'alipay' }));
    const { page } = await openPage(world);
    expect(world.calls.filter(({ route }) => route === commerceCalls.pay).map(({ body }) => body)).toEqual([{ Method: 'alipay' }]);
    expect(page.$payment.get()?.Order.Method).toBe('alipay');
    expect(page.$order.get()).toMatchObject({ State: 'paying', Method: 'alipay' });
  });

  it.each(['wechatpay', 'alipay'] as const)(
    'shows the same %s code again after a reload on a computer, and leaves it to the customer on a phone',
    async (Method) => {
      const computer = getCommerceWorld({ search: `?key=${key}` });
      computer.replies.set(commerceCalls.order, () => orderDetail({ State: 'paying', Method }));
      computer.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: null }));
      computer.replies.set(commerceCalls.pay, () => payment({ Method }));
      const { page } = await openPage(computer);
      expect(computer.calls.map(({ route, body }) => [route, body])).toEqual([
        [commerceCalls.order, undefined],
        [commerceCalls.summary, undefined],
        [commerceCalls.pay, { Method }],
      ]);
      expect(page.$payment.get()).toMatchObject({ QrSvg: '<svg/>', Order: { Method } });

      const phone = getCommerceWorld({ search: `?key=${key}`, phone: true });
      phone.replies.set(commerceCalls.order, () => orderDetail({ State: 'paying', Method }));
      phone.replies.set(commerceCalls.summary, () => ({ Balance: 5000, MembershipUntil: null }));
      const onPhone = await openPage(phone);
      expect(phone.calls.map(({ route }) => route)).toEqual([commerceCalls.order, commerceCalls.summary]);
      expect(onPhone.page.$view.get()).toMatchObject({ phoneFirst: true, intro: 'pay.introPhone', balanceShort: false });
    },
  );

  it('shows no code again for a method the server no longer offers', async () => {
    const world = getCommerceWorld({ search: `?key=${key}` });
    world.replies.set(commerceCalls.order, () => orderDetail({ State: 'paying', Method: 'alipay', PayWith: ['wechatpay', 'wallet'] }));
    world.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: null }));
    const { page } = await openPage(world);
    expect(world.calls.map(({ route }) => route)).toEqual([commerceCalls.order, commerceCalls.summary]);
    expect(page.$payment.get()).toBeNull();
    expect(page.$view.get()).toMatchObject({ open: true, providers: ['wechatpay'] });
  });

  it("leads with WeChat Pay's code to scan for an auto-renewal even on a phone, without the wallet", async () => {
    const world = getCommerceWorld({ search: `?key=${key}`, phone: true });
    world.replies.set(commerceCalls.order, () => orderDetail({ Agreement: 'AG1', PayWith: ['wechatpay'] }));
    const { page } = await openPage(world);
    expect(page.$view.get()).toMatchObject({ renewing: true, providers: ['wechatpay'], wallet: false, phoneFirst: false, intro: 'pay.intro' });
    expect(world.calls.map(({ route }) => route)).toEqual([commerceCalls.order]);
  });

  it('starts nothing for an order that is no longer open, and keeps no balance it could not read', async () => {
    const closed = getCommerceWorld({ search: `?key=${key}&type=wechatpay` });
    closed.replies.set(commerceCalls.order, () => orderDetail({ State: 'closed', Outcome: 'timeout' }));
    const { page } = await openPage(closed);
    expect(closed.calls).toHaveLength(1);
    expect(page.$view.get()).toMatchObject({ open: false, settled: false, outcome: 'timeout', intro: 'pay.introUnpaid' });

    const world = getCommerceWorld({ search: `?key=${key}` });
    world.replies.set(commerceCalls.order, () => orderDetail());
    world.replies.set(commerceCalls.summary, () => Promise.reject(new ApiFailure('network')));
    const open = await openPage(world);
    expect(open.page.$balance.get()).toBeNull();
    expect(open.page.$view.get()?.balanceShort).toBe(false);
    expect(open.page.$notice.get()).toBeNull();
  });

  it('says the order does not exist when the server has none of that key', async () => {
    const world = getCommerceWorld({ search: '?key=BT-NOT-MINE' });
    world.replies.set(commerceCalls.order, () => Promise.reject(new ApiFailure('server', { code: ErrorCode.NotFound, serverMessage: 'No such order' })));
    const page = createPayPage(world.env);
    page.$order.listen(() => {});
    await world.changed('BT-NOT-MINE');
    expect(page.$missing.get()).toBe(true);
    expect(page.$notice.get()).toBeNull();
  });

  it('shows a failed read without making the page busy, and reads again on the next change', async () => {
    const world = getCommerceWorld({ search: `?key=${key}` });
    world.replies.set(commerceCalls.order, () => Promise.reject(new ApiFailure('network')));
    const page = createPayPage(world.env);
    page.$order.listen(() => {});
    await world.changed(key);
    expect(page.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
    expect(page.$busy.get()).toBe(false);
    expect(page.$order.get()).toBeNull();

    world.replies.set(commerceCalls.order, () => orderDetail());
    world.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: null }));
    await world.changed(key);
    expect(page.$order.get()?.Key).toBe(key);
  });

  it('follows nothing without a key, and stops following and ticking when the island leaves', async () => {
    const none = getCommerceWorld();
    createPayPage(none.env).$order.listen(() => {});
    expect(none.env.followOrder).not.toHaveBeenCalled();

    const world = getCommerceWorld({ search: `?key=${key}` });
    world.replies.set(commerceCalls.order, () => orderDetail());
    world.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: null }));
    const { stop } = await openPage(world);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(world.followers.has(key)).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the time left to pay', () => {
  it('counts down each second on the clock', async () => {
    const world = getCommerceWorld({ search: `?key=${key}` });
    world.replies.set(commerceCalls.order, () => orderDetail());
    world.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: null }));
    const { page } = await openPage(world);
    expect(page.$view.get()?.leftMs).toBe(600_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(page.$view.get()?.leftMs).toBe(599_000);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(page.$view.get()?.leftMs).toBe(540_000);
  });
});

describe('paying', () => {
  async function openOrder(options: { search?: string; phone?: boolean } = {}) {
    const world = getCommerceWorld({ search: `?key=${key}`, ...options });
    world.replies.set(commerceCalls.order, () => orderDetail());
    world.replies.set(commerceCalls.summary, () => ({ Balance: 5000, MembershipUntil: null }));
    const { page } = await openPage(world);
    world.calls.length = 0;
    return { world, page };
  }

  it('shows the code to scan, busy while it is asked for, and keeps what the answer says of the order', async () => {
    const { world, page } = await openOrder();
    let answer!: (value: Payment) => void;
    world.replies.set(commerceCalls.pay, () => new Promise<Payment>((resolve) => (answer = resolve)));
    const paying = page.pay('wechatpay');
    expect(page.$busy.get()).toBe(true);
    answer(payment());
    await paying;

    expect(world.calls).toEqual([{ route: commerceCalls.pay, params: { key }, body: { Method: 'wechatpay' }, auth: true }]);
    expect(page.$busy.get()).toBe(false);
    expect(page.$payment.get()?.QrSvg).toBe('<svg/>');
    expect(page.$order.get()).toMatchObject({ State: 'paying', Method: 'wechatpay', Timeline: [] });
  });

  it('shows a refusal that is a payment outcome as that outcome, and clears it when paying starts again', async () => {
    const { world, page } = await openOrder();
    world.replies.set(commerceCalls.pay, () =>
      Promise.reject(new ApiFailure('server', { code: ErrorCode.Maintenance, serverMessage: 'Down for maintenance' })),
    );
    await page.pay('wechatpay');
    expect(page.$view.get()).toMatchObject({ outcome: 'maintenance', open: false });
    expect(page.$notice.get()).toBeNull();
    expect(page.$payment.get()).toBeNull();

    world.replies.set(commerceCalls.pay, () => payment());
    await page.pay('wechatpay');
    expect(page.$view.get()).toMatchObject({ outcome: null, open: true });
  });

  it('shows any other refusal in the server’s words, and a network failure by our message', async () => {
    const { world, page } = await openOrder();
    world.replies.set(commerceCalls.pay, () =>
      Promise.reject(new ApiFailure('server', { code: ErrorCode.InsufficientBalance, serverMessage: 'Not enough in the wallet' })),
    );
    await page.pay('wallet');
    expect(page.$notice.get()).toEqual({ kind: 'error', text: 'Not enough in the wallet' });
    expect(page.$view.get()?.outcome).toBeNull();

    world.replies.set(commerceCalls.pay, () => Promise.reject(new ApiFailure('network')));
    await page.pay('wallet');
    expect(page.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });

  it("shows the code of one provider, then the other's in its place", async () => {
    const { world, page } = await openOrder();
    world.replies.set(commerceCalls.pay, ({ body }) => payment({ Method: (body as { Method: 'wechatpay' | 'alipay' }).Method }));
    await page.pay('wechatpay');
    expect(page.$payment.get()).toMatchObject({ CodeUrl: 'weixin://wxpay/bizpayurl?pr=abc', Order: { Method: 'wechatpay' } });
    await page.pay('alipay');
    expect(world.calls.map(({ body }) => body)).toEqual([{ Method: 'wechatpay' }, { Method: 'alipay' }]);
    expect(page.$payment.get()).toMatchObject({ CodeUrl: 'https://qr.alipay.com/bax01234', Order: { Method: 'alipay' } });
    expect(page.$order.get()).toMatchObject({ State: 'paying', Method: 'alipay' });
    expect(page.$view.get()).toMatchObject({ open: true, providers: ['wechatpay', 'alipay'] });
  });

  it.each([
    [
      'wechatpay',
      'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx1&package=2&redirect_url=https%3A%2F%2Fbeacontoolkit.net%2Fen%2Fpayment%3Fkey%3D1%26from%3Dwechatpay',
    ],
    [
      'alipay',
      'https://openapi.alipay.com/gateway.do?charset=utf-8&method=alipay.trade.wap.pay&sign=abc%2B%3D&return_url=https%3A%2F%2Fbeacontoolkit.net%2Fen%2Fpayment%3Fkey%3D1%26from%3Dalipay',
    ],
  ] as const)('sends the phone to pay in %s, at the address the server gave, unchanged', async (Method, PayUrl) => {
    const { world, page } = await openOrder({ phone: true });
    world.replies.set(commerceCalls.payOnPhone, () => ({ Order: { ...order, State: 'paying', Method }, PayUrl }));
    await page.payInApp(Method);
    expect(world.calls).toEqual([{ route: commerceCalls.payOnPhone, params: { key }, body: { Method }, auth: true }]);
    expect(world.env.location.assign).toHaveBeenCalledExactlyOnceWith(PayUrl);
  });

  it('goes nowhere when paying in the app was refused', async () => {
    const { world, page } = await openOrder({ phone: true });
    world.replies.set(commerceCalls.payOnPhone, () => Promise.reject(new ApiFailure('server', { code: ErrorCode.OrderClosed, serverMessage: 'Closed' })));
    await page.payInApp('alipay');
    expect(world.env.location.assign).not.toHaveBeenCalled();
    expect(page.$view.get()?.outcome).toBe('closed');
  });

  it('knows which provider the customer came back from, whatever else the provider added to the address', () => {
    const returned = (search: string) => createPayPage(getCommerceWorld({ search }).env).returned;
    expect(returned(`?key=${key}&from=wechatpay`)).toBe('wechatpay');
    expect(returned(`?key=${key}&from=alipay&charset=utf-8&out_trade_no=${key}H&method=alipay.trade.wap.pay.return&sign=abc&trade_no=2026`)).toBe('alipay');
    expect(returned(`?key=${key}`)).toBeNull();
    expect(returned(`?key=${key}&from=wallet`)).toBeNull();
  });
});

describe('cancelling', () => {
  it('cancels the order and shows its new state, or the server’s refusal', async () => {
    const world = getCommerceWorld({ search: `?key=${key}` });
    world.replies.set(commerceCalls.order, () => orderDetail());
    world.replies.set(commerceCalls.summary, () => ({ Balance: 0, MembershipUntil: null }));
    const { page } = await openPage(world);

    world.replies.set(commerceCalls.cancel, () => Promise.reject(new ApiFailure('server', { code: ErrorCode.OrderClosed, serverMessage: 'Already paid' })));
    await page.cancel();
    expect(page.$notice.get()).toEqual({ kind: 'error', text: 'Already paid' });
    expect(page.$view.get()?.open).toBe(true);

    world.replies.set(commerceCalls.cancel, () => ({ ...order, State: 'closed', Outcome: 'canceled' }));
    await page.cancel();
    expect(world.calls.at(-1)).toEqual({ route: commerceCalls.cancel, params: { key }, body: undefined, auth: true });
    expect(page.$view.get()).toMatchObject({ open: false, outcome: 'canceled', intro: 'pay.introUnpaid' });
    expect(page.$notice.get()).toBeNull();
  });
});
