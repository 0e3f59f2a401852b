/**
 * The signed /bindorder links of orders made in the desktop client: the order
 * number and the link's expiry, signed with a key derived from the server
 * secret. A link works until its order's pay window ends, and once: binding
 * gives the order an account, and an order with one is never bound again.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { BindLink } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { Database } from '../../db/database.ts';
import { orders } from '../../db/schema/commerce.ts';
import { ApiError } from '../../http/api-error.ts';
import { lockOrder, note, type OrderRow } from './orders.ts';

const signature = (secret: Buffer, order: string, expires: string) => createHmac('sha256', secret).update(`bindorder.${order}.${expires}`).digest('base64url');

/** The query of an order's link: it expires with the order's pay window. */
export function bindLinkFor(secret: Buffer, row: OrderRow): BindLink {
  const expires = String(Math.floor(row.expiresAt.getTime() / 1000));
  return { order: row.key, expires, sig: signature(secret, row.key, expires) };
}

/** Checks a link and gives its order to the user, in one transaction; answers the order. */
export async function bindOrder(db: Database, secret: Buffer, userId: number, link: BindLink, now = Date.now()): Promise<OrderRow> {
  const expected = Buffer.from(signature(secret, link.order, link.expires));
  const given = Buffer.from(link.sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new ApiError(ErrorCode.BindLinkInvalid, 'bindLinkInvalid');
  if (Number(link.expires) * 1000 <= now) throw new ApiError(ErrorCode.BindLinkExpired, 'bindLinkExpired');
  return db.transaction(async (tx) => {
    const row = await lockOrder(tx, link.order);
    // The row lock makes two people opening one link take turns: the second finds an owner.
    if (row.userId !== null) throw new ApiError(ErrorCode.BindLinkUsed, 'bindLinkUsed');
    const [bound] = await tx
      .update(orders)
      .set({ userId })
      .where(and(eq(orders.id, row.id), isNull(orders.userId)))
      .returning();
    return note(tx, bound, 'customer', 'boundToAccount');
  });
}
