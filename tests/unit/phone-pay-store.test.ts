/**
 * The sandbox's phone page (src/features/commerce/phone-pay-store.ts) in Node:
 * the transaction the scanned code names, what the "customer" may do with it,
 * and doing it.
 */
import { describe, expect, it } from 'vitest';
import { paymentSandbox, type SandboxTransaction } from '#contract/dev.ts';
import { actionsFor, createPhonePay } from '@/features/commerce/phone-pay-store.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { getCommerceWorld, order } from './commerce-world.ts';

const transaction = (changes: Partial<SandboxTransaction> = {}): SandboxTransaction => ({
  Kind: 'payment',
  Id: 'wxsandbox0001',
  OrderKey: order.Key,
  Description: 'Cloud idling, 1 month',
  Total: 1500,
  State: 'NOTPAY',
  ExpiresAt: '2026-01-01T00:15:00.000Z',
  ...changes,
});

/** A page as the island opens it, once its first read has answered. */
async function openPage(world: ReturnType<typeof getCommerceWorld>) {
  const page = createPhonePay(world.env);
  page.$transaction.listen(() => {});
  await Promise.resolve();
  await Promise.resolve();
  return page;
}

describe('the phone page after scanning', () => {
  it('tells a phone without a sandbox transaction to use WeChat, asking nothing', () => {
    const world = getCommerceWorld();
    const page = createPhonePay(world.env);
    page.$transaction.listen(() => {});
    expect(page.$transaction.get()).toBeNull();
    expect(world.calls).toEqual([]);
  });

  it('reads the transaction the code names, publicly, and says so when the sandbox does not know it', async () => {
    const world = getCommerceWorld({ search: '?pr=wxsandbox0001' });
    world.replies.set(paymentSandbox.transaction, () => transaction());
    const page = createPhonePay(world.env);
    expect(page.$transaction.get()).toBeUndefined();
    page.$transaction.listen(() => {});
    await Promise.resolve();
    expect(page.$transaction.get()).toEqual(transaction());
    expect(world.calls).toEqual([{ route: paymentSandbox.transaction, params: { id: 'wxsandbox0001' }, body: undefined, auth: false }]);

    const unknown = getCommerceWorld({ search: '?pr=wxsandbox0002' });
    unknown.replies.set(paymentSandbox.transaction, () => Promise.reject(new ApiFailure('server', { code: 404, serverMessage: 'Not found' })));
    expect(await openPage(unknown).then((other) => other.$transaction.get())).toBeNull();
  });

  it('does what the customer chose and shows the transaction as it now stands', async () => {
    const world = getCommerceWorld({ search: '?pr=wxsandbox0001' });
    world.replies.set(paymentSandbox.transaction, () => transaction());
    world.replies.set(paymentSandbox.act, () => transaction({ State: 'SUCCESS' }));
    const page = await openPage(world);

    const acting = page.act('approve');
    expect(page.$busy.get()).toBe(true);
    await acting;
    expect(world.calls.at(-1)).toEqual({ route: paymentSandbox.act, params: { id: 'wxsandbox0001' }, body: { Action: 'approve' }, auth: false });
    expect(page.$transaction.get()?.State).toBe('SUCCESS');
    expect(page.$done.get()).toBe(true);
    expect(page.$notice.get()).toBeNull();
  });

  it('shows a refusal in the sandbox’s words and a network failure by our message, changing nothing', async () => {
    const world = getCommerceWorld({ search: '?pr=wxsandbox0001' });
    world.replies.set(paymentSandbox.transaction, () => transaction());
    world.replies.set(paymentSandbox.act, () => Promise.reject(new ApiFailure('server', { code: 409, serverMessage: 'Already closed' })));
    const page = await openPage(world);
    await page.act('expire');
    expect(page.$notice.get()).toEqual({ kind: 'error', text: 'Already closed' });
    expect(page.$done.get()).toBe(false);
    expect(page.$transaction.get()?.State).toBe('NOTPAY');

    world.replies.set(paymentSandbox.act, () => Promise.reject(new ApiFailure('network')));
    await page.act('decline');
    expect(page.$notice.get()).toEqual({ kind: 'error', key: 'messages.networkError' });
  });
});

describe('what the customer may do', () => {
  it('pays, declines, lets expire or pays twice an open payment; pays a paid one twice, or makes its refunds fail', () => {
    expect(actionsFor(transaction())).toEqual(['approve', 'decline', 'expire', 'payTwice']);
    expect(actionsFor(transaction({ State: 'SUCCESS' }))).toEqual(['payTwice', 'failRefunds']);
    expect(actionsFor(transaction({ State: 'REFUND' }))).toEqual(['failRefunds']);
    expect(actionsFor(transaction({ State: 'CLOSED' }))).toEqual([]);
  });

  it('signs or declines a contract, then makes its charges fail or ends it', () => {
    expect(actionsFor(transaction({ Kind: 'contract', State: 'NOTSIGNED' }))).toEqual(['approve', 'decline']);
    expect(actionsFor(transaction({ Kind: 'contract', State: 'SIGNED' }))).toEqual(['failCharges', 'terminate']);
    expect(actionsFor(transaction({ Kind: 'contract', State: 'TERMINATED' }))).toEqual([]);
  });
});
