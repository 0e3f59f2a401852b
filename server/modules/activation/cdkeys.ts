/**
 * cdkeys (contract/activation.ts): batches made by operators, keys derived
 * from the server's secret so that only their hashes are stored, and
 * redemption — exactly once, ever: the key's row is locked, checked and marked
 * used in the same transaction that makes its grant. Wrong keys count against
 * the account and the address; enough of them lately locks redeeming.
 */
import { createHash, createHmac } from 'node:crypto';
import { and, count, desc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { cdkeyLockoutMs, cdkeyMaxFailures, type CdkeyGrant, type Redemption } from '#contract/activation.ts';
import { cdkeyAlphabet, cdkeyLength, cdkeyShape, checkCharacter, formatCdkey, maskCdkey, normalizeCdkey } from '#contract/cdkey-format.ts';
import { pageSize } from '#contract/paging.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { AuditTarget } from '#contract/audit.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { cdkeyBatches, cdkeyFailures, cdkeys } from '../../db/schema/activation.ts';
import { ApiError } from '../../http/api-error.ts';

/** The key of a batch's index: HMAC of the server's secret, so it cannot be found from the database alone. */
export function deriveKey(secret: Buffer, batchId: number, index: number): string {
  const bytes = createHmac('sha256', secret).update(`cdkey:${batchId}:${index}`).digest();
  // 256 is a multiple of 32, so each byte's low five bits pick a character without bias.
  const body = Array.from(bytes.subarray(0, cdkeyLength - 1), (byte) => cdkeyAlphabet[byte & 31]).join('');
  return formatCdkey(body + checkCharacter(body));
}

const hashOf = (key: string) => createHash('sha256').update(normalizeCdkey(key)).digest('hex');

/** Makes a batch and its keys' hashes; answers the batch's id. */
export async function createBatch(
  db: Database,
  actor: Actor,
  secret: Buffer,
  batch: { name: string; count: number; grant: CdkeyGrant; expiresAt: Date | null },
): Promise<number> {
  return db.transaction(async (tx) => {
    const [made] = await tx
      .insert(cdkeyBatches)
      .values({ name: batch.name, grant: batch.grant, count: batch.count, expiresAt: batch.expiresAt })
      .returning({ id: cdkeyBatches.id });
    const rows = Array.from({ length: batch.count }, (_, index) => {
      const key = deriveKey(secret, made.id, index);
      return { batchId: made.id, index, hash: hashOf(key), masked: maskCdkey(key) };
    });
    // In slices: one statement's parameters are limited.
    for (let start = 0; start < rows.length; start += 1000) await tx.insert(cdkeys).values(rows.slice(start, start + 1000));
    await recordAudit(tx, actor, {
      action: 'cdkey create',
      target: `batch ${batch.name}`,
      before: null,
      after: { count: batch.count, grant: batch.grant, expiresAt: batch.expiresAt?.toISOString() ?? null },
    });
    return made.id;
  });
}

export type BatchRow = typeof cdkeyBatches.$inferSelect;

export async function findBatch(db: Database, name: string): Promise<BatchRow | null> {
  const [batch] = await db.select().from(cdkeyBatches).where(eq(cdkeyBatches.name, name));
  return batch ?? null;
}

/** A batch's keys that are neither used nor revoked, as the customer types them. */
export async function unusedKeys(db: Database, secret: Buffer, batch: BatchRow, limit: number): Promise<string[]> {
  const rows = await db
    .select({ index: cdkeys.index })
    .from(cdkeys)
    .where(and(eq(cdkeys.batchId, batch.id), isNull(cdkeys.usedAt), isNull(cdkeys.revokedAt)))
    .orderBy(cdkeys.index)
    .limit(limit);
  return rows.map((row) => deriveKey(secret, batch.id, row.index));
}

export async function batchCounts(db: Database, batch: BatchRow): Promise<{ used: number; revoked: number }> {
  const [{ used }] = await db
    .select({ used: count() })
    .from(cdkeys)
    .where(and(eq(cdkeys.batchId, batch.id), isNotNull(cdkeys.usedAt)));
  const [{ revoked }] = await db
    .select({ revoked: count() })
    .from(cdkeys)
    .where(and(eq(cdkeys.batchId, batch.id), isNotNull(cdkeys.revokedAt)));
  return { used, revoked };
}

/** Revokes one key (as typed) or, with a batch name, every unused key of the batch; answers how many. */
export async function revoke(db: Database, actor: Actor, what: { key: string } | { batch: BatchRow }): Promise<number> {
  const which = 'key' in what ? eq(cdkeys.hash, hashOf(what.key)) : eq(cdkeys.batchId, what.batch.id);
  return db.transaction(async (tx) => {
    const revoked = await tx
      .update(cdkeys)
      .set({ revokedAt: sql`now()` })
      .where(and(which, isNull(cdkeys.usedAt), isNull(cdkeys.revokedAt)))
      .returning({ masked: cdkeys.masked });
    // A key is named masked: the log must not hand out what it records.
    const target: AuditTarget = 'key' in what ? `key ${maskCdkey(what.key)}` : `batch ${what.batch.name}`;
    if (revoked.length)
      await recordAudit(tx, actor, { action: 'cdkey revoke', target, before: { unused: revoked.length }, after: { revoked: revoked.length } });
    return revoked.length;
  });
}

/** A key's state as an operator asks about it (by the key as typed). */
export async function keyState(db: Database, key: string) {
  const [row] = await db
    .select({
      batch: cdkeyBatches.name,
      grant: cdkeyBatches.grant,
      expiresAt: cdkeyBatches.expiresAt,
      usedBy: cdkeys.usedBy,
      usedAt: cdkeys.usedAt,
      revokedAt: cdkeys.revokedAt,
      order: cdkeys.orderKey,
    })
    .from(cdkeys)
    .innerJoin(cdkeyBatches, eq(cdkeys.batchId, cdkeyBatches.id))
    .where(eq(cdkeys.hash, hashOf(key)));
  return row ?? null;
}

/** The queue of the hourly clean-up of wrong keys older than the lockout, which no longer count. */
export const failureCleanupJob = 'cdkey-failure-cleanup';

export async function forgetOldFailures(db: Database): Promise<void> {
  await db.delete(cdkeyFailures).where(lt(cdkeyFailures.at, new Date(Date.now() - cdkeyLockoutMs)));
}

/** Refuses to check another key while the account or the address has had `cdkeyMaxFailures` wrong ones within the lockout. */
async function refuseIfLocked(db: Database, userId: number, ip: string): Promise<void> {
  const now = Date.now();
  const recent = await db
    .select({ at: cdkeyFailures.at })
    .from(cdkeyFailures)
    .where(and(gt(cdkeyFailures.at, new Date(now - cdkeyLockoutMs)), or(eq(cdkeyFailures.userId, userId), eq(cdkeyFailures.ip, ip))))
    .orderBy(desc(cdkeyFailures.at))
    .limit(cdkeyMaxFailures);
  // Locked until the oldest of the last `cdkeyMaxFailures` wrong keys leaves the lockout.
  if (recent.length >= cdkeyMaxFailures)
    throw new ApiError(ErrorCode.CdkeyLocked, 'cdkeyLocked', {}, { retryAfterMs: recent.at(-1)!.at.getTime() + cdkeyLockoutMs - now });
}

/** Makes a key's grant inside the redemption's transaction; answers the order it made, if any. */
export type Granter = (tx: Transaction, userId: number, grant: CdkeyGrant) => Promise<string | null>;

/**
 * Redeems a key for a user. A wrong key (unknown, revoked, mistyped) is
 * recorded against the account and the address before it is refused; a used
 * or expired one is refused as such.
 */
export async function redeem(db: Database, grantTo: Granter, userId: number, ip: string, typed: string): Promise<Redemption> {
  await refuseIfLocked(db, userId, ip);
  const wrong = async (code: number, messageKey: 'cdkeyUnknown' | 'cdkeyChecksum') => {
    await db.insert(cdkeyFailures).values({ userId, ip });
    return new ApiError(code, messageKey);
  };
  const shape = cdkeyShape(typed);
  if (shape === 'checksum') throw await wrong(ErrorCode.CdkeyChecksum, 'cdkeyChecksum');
  if (shape !== 'ok') throw await wrong(ErrorCode.CdkeyUnknown, 'cdkeyUnknown');

  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ key: cdkeys, batch: cdkeyBatches })
      .from(cdkeys)
      .innerJoin(cdkeyBatches, eq(cdkeys.batchId, cdkeyBatches.id))
      .where(eq(cdkeys.hash, hashOf(typed)))
      .for('update', { of: cdkeys });
    if (!row || row.key.revokedAt) return 'unknown' as const;
    if (row.key.usedAt) return 'used' as const;
    if (row.batch.expiresAt && row.batch.expiresAt.getTime() <= Date.now()) return 'expired' as const;
    const order = await grantTo(tx, userId, row.batch.grant);
    const [used] = await tx
      .update(cdkeys)
      .set({ usedBy: userId, usedAt: sql`now()`, orderKey: order })
      .where(eq(cdkeys.id, row.key.id))
      .returning();
    return { Key: used.masked, Batch: row.batch.name, Grant: row.batch.grant, At: used.usedAt!.toISOString(), Order: order };
  });
  if (outcome === 'unknown') throw await wrong(ErrorCode.CdkeyUnknown, 'cdkeyUnknown');
  if (outcome === 'used') throw new ApiError(ErrorCode.CdkeyUsed, 'cdkeyUsed');
  if (outcome === 'expired') throw new ApiError(ErrorCode.CdkeyExpired, 'cdkeyExpired');
  return outcome;
}

export async function redemptionPage(db: Database, userId: number, page: number): Promise<{ Items: Redemption[]; Total: number; Page: number }> {
  const rows = await db
    .select({ key: cdkeys, batch: cdkeyBatches })
    .from(cdkeys)
    .innerJoin(cdkeyBatches, eq(cdkeys.batchId, cdkeyBatches.id))
    .where(eq(cdkeys.usedBy, userId))
    .orderBy(desc(cdkeys.usedAt))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [{ total }] = await db.select({ total: count() }).from(cdkeys).where(eq(cdkeys.usedBy, userId));
  return {
    Items: rows.map(({ key, batch }) => ({ Key: key.masked, Batch: batch.name, Grant: batch.grant, At: key.usedAt!.toISOString(), Order: key.orderKey })),
    Total: total,
    Page: page,
  };
}
