/**
 * What is sold: products as operators set them (`admin product …`), and the
 * order item and price a customer's choice makes, checked against them.
 */
import { and, asc, eq } from 'drizzle-orm';
import { facts } from '#contract/facts.ts';
import { rechargePrice, steamTargetOf, type NewOrder, type OrderItem, type Product } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import type * as z from 'zod/mini';
import type { Database, Transaction } from '../../db/database.ts';
import { products } from '../../db/schema/commerce.ts';
import { externalAccounts } from '../../db/schema/identity.ts';
import { ApiError } from '../../http/api-error.ts';

type ProductRow = typeof products.$inferSelect;

export function toProduct(row: ProductRow): Product {
  return {
    Code: row.code,
    Kind: row.kind,
    Months: row.months,
    Price: row.price,
    Currency: row.currency,
    Region: row.region,
    RatePpm: row.ratePpm,
    Presets: row.presets,
    MinAmount: row.minAmount,
    MaxAmount: row.maxAmount,
    AutoRenew: row.kind === 'membership' && row.renewalPlan !== null,
  };
}

/** What a membership order buys. */
export function membershipItem(product: string, months: number): OrderItem {
  return { Kind: 'membership', Product: product, Months: months, Amount: null, Currency: null, RatePpm: null, SteamId: null };
}

export async function activeProducts(db: Database): Promise<Product[]> {
  const rows = await db.select().from(products).where(eq(products.active, true)).orderBy(asc(products.sort), asc(products.code));
  return rows.map(toProduct);
}

/** The item and price of a new order, or the reason it cannot be made. */
export async function priceOrder(
  db: Database | Transaction,
  userId: number | null,
  request: z.output<typeof NewOrder>,
): Promise<{ item: OrderItem; price: number }> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.code, request.Product), eq(products.active, true)));
  if (!row) throw new ApiError(ErrorCode.ProductUnavailable, 'productUnavailable');
  if (row.kind === 'membership') {
    if (!row.months || row.price === null) throw new ApiError(ErrorCode.ProductUnavailable, 'productUnavailable');
    return { item: membershipItem(row.code, row.months), price: row.price };
  }

  const amount = request.Amount;
  if (amount === undefined || row.minAmount === null || row.maxAmount === null || !row.ratePpm || !row.currency) {
    throw new ApiError(ErrorCode.AmountInvalid, 'amountInvalid');
  }
  if (!row.presets.includes(amount) && (amount < row.minAmount || amount > row.maxAmount)) throw new ApiError(ErrorCode.AmountInvalid, 'amountInvalid');
  const steamId = request.Target === undefined ? await linkedSteamId(db, userId) : steamTargetOf(request.Target);
  if (!steamId) throw new ApiError(ErrorCode.SteamTargetInvalid, 'steamTargetInvalid');
  const item: OrderItem = {
    Kind: 'steamRecharge',
    Product: row.code,
    Months: null,
    Amount: amount,
    Currency: row.currency,
    RatePpm: row.ratePpm,
    SteamId: steamId,
  };
  return { item, price: rechargePrice(amount, row.ratePpm) };
}

async function linkedSteamId(db: Database | Transaction, userId: number | null): Promise<string> {
  // An order from the desktop client has no account yet, so no linked Steam account either.
  if (userId === null) throw new ApiError(ErrorCode.SteamNotLinked, 'steamNotLinked');
  const [linked] = await db
    .select({ subject: externalAccounts.subject })
    .from(externalAccounts)
    .where(and(eq(externalAccounts.userId, userId), eq(externalAccounts.provider, 'steam')));
  if (!linked) throw new ApiError(ErrorCode.SteamNotLinked, 'steamNotLinked');
  return linked.subject;
}

const cny = (price: { cny: number }) => price.cny;

/**
 * The products of a fresh embedded database: the recharge of a Chinese Steam
 * wallet (the one the recharge page describes) and the three cloud-idling
 * plans (content/facts.json), each with an auto-renewal template the payment
 * sandbox accepts.
 */
export const demoProducts: Array<typeof products.$inferInsert> = [
  {
    code: 'steam-cn',
    kind: 'steamRecharge',
    sort: 1,
    currency: 'CNY',
    region: 'CN',
    ratePpm: 1_000_000,
    presets: facts.recharge.amounts.map(cny),
    minAmount: cny(facts.recharge.customMin),
    maxAmount: cny(facts.recharge.customMax),
  },
  {
    code: 'cloud-idle-monthly',
    kind: 'membership',
    sort: 10,
    months: facts.cloudIdle.monthlyPeriod.months,
    price: cny(facts.cloudIdle.monthlyPrice),
    renewalPlan: 1001,
  },
  {
    code: 'cloud-idle-quarterly',
    kind: 'membership',
    sort: 11,
    months: facts.cloudIdle.quarterlyPeriod.months,
    price: cny(facts.cloudIdle.quarterlyPrice),
    renewalPlan: 1003,
  },
  {
    code: 'cloud-idle-yearly',
    kind: 'membership',
    sort: 12,
    months: facts.cloudIdle.yearlyPeriod.months,
    price: cny(facts.cloudIdle.yearlyPrice),
    renewalPlan: 1012,
  },
];
