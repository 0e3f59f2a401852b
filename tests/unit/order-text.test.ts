/** An order's status: one word for where it stands, the same in the order list, on its page and in its timeline, in every locale. */
import { describe, expect, it } from 'vitest';
import { OrderState, PayOutcome } from '#contract/commerce.ts';
import { localeCodes } from '@/i18n/locales.ts';
import { dictionaryOf } from '@/i18n/t.ts';
import { hasReceipt, orderStatus, showsMethod, type OrderStatus } from '@/lib/order-text.ts';

/** The timeline events (server notes) that end an order in a status other than its own state's. */
const endings: Partial<Record<OrderStatus, string[]>> = {
  canceled: ['canceled'],
  expired: ['expired', 'closedByProvider'],
  failed: ['paymentFailed', 'chargeRefused'],
};

describe('orderStatus', () => {
  it('tells a cancelled order from one that was not paid in time, both closed on the server', () => {
    expect(orderStatus({ State: 'closed', Outcome: 'canceled' })).toBe('canceled');
    expect(orderStatus({ State: 'closed', Outcome: 'timeout' })).toBe('expired');
  });

  it('reads an order not paid yet as awaiting payment, with or without a code shown', () => {
    expect(orderStatus({ State: 'created', Outcome: null })).toBe('awaitingPayment');
    expect(orderStatus({ State: 'paying', Outcome: null })).toBe('awaitingPayment');
  });

  it('keeps the other states as they are', () => {
    for (const state of ['paid', 'fulfilled', 'failed', 'refunded'] as const) expect(orderStatus({ State: state, Outcome: null })).toBe(state);
  });

  it('has a word in every locale for every state and outcome', () => {
    for (const code of localeCodes) {
      const dictionary = dictionaryOf(code);
      for (const State of OrderState.options)
        for (const Outcome of [null, ...PayOutcome.options])
          expect(dictionary[`account.order.state.${orderStatus({ State, Outcome })}`], `${code}: ${State}/${Outcome}`).toBeTruthy();
    }
  });
});

describe('showsMethod', () => {
  it('shows how an order was paid, or which payment failed, and nothing for an order never paid', () => {
    const shown = (['awaitingPayment', 'paid', 'fulfilled', 'canceled', 'expired', 'failed', 'refunded'] as const).filter(showsMethod);
    expect(shown).toEqual(['paid', 'fulfilled', 'failed', 'refunded']);
  });
});

describe('the timeline', () => {
  it.each(localeCodes)('%s: the event that ends an order starts with the word its status reads', (code) => {
    const dictionary = dictionaryOf(code);
    for (const [status, notes] of Object.entries(endings)) {
      const word = dictionary[`account.order.state.${status}`];
      for (const note of notes) expect(dictionary[`account.orderDetail.event.${note}`].slice(0, word.length), `${code}: ${note}`).toBe(word);
    }
  });
});

describe('hasReceipt', () => {
  it('is true of an order paid with money, delivered or refunded since', () => {
    expect(hasReceipt({ State: 'paid', Method: 'wechatpay' })).toBe(true);
    expect(hasReceipt({ State: 'fulfilled', Method: 'wallet' })).toBe(true);
    expect(hasReceipt({ State: 'refunded', Method: 'alipay' })).toBe(true);
  });

  it('is false of an order paid with a cdkey, and of one never paid, whatever method it tried', () => {
    expect(hasReceipt({ State: 'paid', Method: 'cdkey' })).toBe(false);
    for (const State of ['created', 'paying', 'closed', 'failed'] as const) expect(hasReceipt({ State, Method: 'wechatpay' }), State).toBe(false);
    expect(hasReceipt({ State: 'created', Method: null })).toBe(false);
  });
});
