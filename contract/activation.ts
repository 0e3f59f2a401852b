/**
 * Activation by cdkey (`/activate/cdkey`, account `redemption`): a key
 * an operator made grants wallet credit, cloud-idling days or a Steam wallet
 * recharge, once, to the first account that redeems it. What a key looks like
 * is in cdkey-format.ts.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { facts, periodMs } from './facts.ts';
import { Empty, Minor, text } from './fields.ts';
import { MembershipGrant, WalletGrant } from './grants.ts';

/** After this many wrong keys from one account or address, redeeming is locked for `cdkeyLockoutMs`. */
export const cdkeyMaxFailures: number = facts.cdkey.maxFailures;
export const cdkeyLockoutMs: number = periodMs(facts.cdkey.lockout);

/**
 * What a key grants: fen to the wallet, days of cloud idling, or a recharge
 * of a Steam product (`Amount` in its currency's smallest unit) to the linked
 * Steam account, which an operator then delivers like a paid order.
 */
export const CdkeyGrant = z.discriminatedUnion('Kind', [
  WalletGrant,
  MembershipGrant,
  z.object({ Kind: z.literal('steamRecharge'), Product: text(z.regex(/^[a-z0-9-]{1,40}$/)), Amount: Minor, Currency: text(z.regex(/^[A-Z]{3}$/)) }),
]);
export type CdkeyGrant = z.infer<typeof CdkeyGrant>;

export const Redemption = z.object({
  /** The key with most of it hidden. */
  Key: text(),
  Batch: text(),
  Grant: CdkeyGrant,
  At: z.iso.datetime(),
  /** steamRecharge: the order it made, which an operator delivers. */
  Order: z.nullable(text()),
});
export type Redemption = z.infer<typeof Redemption>;

const page = z.object({ page: z.pipe(text(z.regex(/^[0-9]{1,6}$/)), z.pipe(z.transform(Number), z.int().check(z.positive()))) });

export const activationCalls = {
  /** Redeems a key for the caller: what it granted, and the wallet balance and plan end after it. */
  redeem: route({
    method: 'POST',
    path: '/activation/v1/cdkey',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Key: text(z.maxLength(64)) }),
    response: z.object({ Redemption, Balance: Minor, MembershipUntil: z.nullable(z.iso.datetime()) }),
  }),
  /** The caller's redemptions, newest first, 24 a page (paging.ts `pageSize`). */
  redemptions: route({
    method: 'GET',
    path: '/activation/v1/redemptions/page/:page',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: page,
    request: Empty,
    response: z.object({ Items: z.array(Redemption), Total: z.int(), Page: z.int() }),
  }),
};
