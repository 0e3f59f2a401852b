/**
 * Auto-renewal agreements: a membership the payment provider charges again
 * each period, signed when the first period's order is paid and ended when the
 * customer cancels it (the account centre's agreements). The orders that pay
 * its periods are commerce.ts's.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { Order } from './commerce.ts';
import { Empty, Minor, text } from './fields.ts';

/**
 * An auto-renewal agreement: signed with the payment provider when its first
 * period is paid (pending until then), it is charged again when each period
 * ends (active) until the customer cancels it or its charges keep failing
 * (lapsed).
 */
export const AgreementState = z.enum(['pending', 'active', 'canceled', 'lapsed']);
export type AgreementState = z.infer<typeof AgreementState>;

export const Agreement = z.object({
  Key: text(),
  State: AgreementState,
  Product: text(),
  Months: z.int(),
  /** Charged each period, in fen. */
  Price: Minor,
  CreatedAt: z.iso.datetime(),
  SignedAt: z.nullable(z.iso.datetime()),
  /** active: when the next period is charged. */
  NextChargeAt: z.nullable(z.iso.datetime()),
  /** Charges that failed since the last one that went through. */
  FailedCharges: z.int(),
  EndedAt: z.nullable(z.iso.datetime()),
});
export type Agreement = z.infer<typeof Agreement>;

const agreementKey = z.object({ key: text(z.regex(/^A[0-9]{20}$/)) });

export const agreementCalls = {
  list: route({
    method: 'GET',
    path: '/commerce/v1/agreements',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: z.array(Agreement),
  }),
  /** Starts an auto-renewal agreement for a membership: answers it (pending) and the order of its first period, to pay on the pay page. */
  create: route({
    method: 'POST',
    path: '/commerce/v1/agreements',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Product: text(z.maxLength(40)) }),
    response: z.object({ Agreement, Order }),
  }),
  /** Ends an agreement: nothing more is charged; the period already paid runs to its end. */
  cancel: route({
    method: 'POST',
    path: '/commerce/v1/agreements/:key/cancel',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: agreementKey,
    request: Empty,
    response: Agreement,
  }),
};
