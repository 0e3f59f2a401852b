/**
 * Sessions and their tokens: opaque random bearer tokens stored
 * only as SHA-256 hashes. A login opens a session (one device); refreshing
 * rotates both tokens, and a refresh token used twice revokes the session,
 * because one of the two users of it is a thief.
 *
 * Recent authentications are remembered for 30 s per app instance (see
 * services/ttl-cache.ts); this instance's sign-outs and rotations drop them at once,
 * and `onRevoked` hears of every session that ended, so its live connections
 * can be closed and every other instance forgets it too (`forget`).
 */
import { and, eq, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { ErrorCode } from '#contract/errors.ts';
import { lifetimes, type Session } from '#contract/identity.ts';
import { hashOpaqueToken as hashToken, newOpaqueToken as newToken } from '../../crypto/opaque-tokens.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import { committingRefusals, refused } from '../../db/committing-refusals.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { sessions, tokens, users } from '../../db/schema/identity.ts';
import { ApiError, unauthorized } from '../../http/api-error.ts';
import type { Authenticated } from '../../http/auth.ts';
import type { ClientInfo } from './client-info.ts';
import { TtlCache } from '../../services/ttl-cache.ts';

export interface IssuedTokens {
  AccessToken: string;
  ExpiresIn: number;
  RefreshToken: string;
  RefreshExpiresIn: number;
}

/** How stale `last_seen_at` may get before a request writes it again: keeps reads read-only. */
const lastSeenPrecisionMs = 60_000;

/** A session still in use: not revoked and holding a token that has not expired. The user's session list and the operators' count both use it. */
export const isActiveSession: SQL = and(
  isNull(sessions.revokedAt),
  sql`exists (select 1 from ${tokens} where ${tokens.sessionId} = ${sessions.id} and ${tokens.expiresAt} > now())`,
)!;

async function issueTokens(tx: Transaction, sessionId: string, now: Date): Promise<IssuedTokens> {
  const access = newToken();
  const refresh = newToken();
  const accessExpires = now.getTime() + lifetimes.accessTokenMs;
  const refreshExpires = now.getTime() + lifetimes.refreshTokenMs;
  await tx.insert(tokens).values([
    { hash: hashToken(access), sessionId, kind: 'access', expiresAt: new Date(accessExpires) },
    { hash: hashToken(refresh), sessionId, kind: 'refresh', expiresAt: new Date(refreshExpires) },
  ]);
  return { AccessToken: access, ExpiresIn: accessExpires, RefreshToken: refresh, RefreshExpiresIn: refreshExpires };
}

/** Signs the open sessions `which` picks out, with their access tokens; a refresh token then finds its session revoked. */
async function revokeSessions(tx: Transaction, which: SQL, now: Date) {
  const revoked = await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(which, isNull(sessions.revokedAt)))
    .returning({ id: sessions.id, userId: sessions.userId, device: sessions.device });
  for (const { id } of revoked) await tx.delete(tokens).where(and(eq(tokens.sessionId, id), eq(tokens.kind, 'access')));
  return revoked;
}

/**
 * An operator ends a customer's session (`npm run admin -- session end`, the
 * console): revoked with its access tokens and audited in one transaction.
 * Answers the session's user, or null when no session of that id is open.
 * The caller then announces the end on the backplane (`Pusher.endSessions`),
 * which makes every instance forget the session's token at once.
 */
export async function endSessionByOperator(db: Database, actor: Actor, sessionId: string, now = new Date()): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [ended] = await revokeSessions(tx, eq(sessions.id, sessionId), now);
    if (!ended) return null;
    await recordAudit(tx, actor, {
      action: 'session end',
      target: `user ${ended.userId}`,
      before: { session: sessionId, device: ended.device },
      after: { session: null },
    });
    return ended.userId;
  });
}

export class SessionStore {
  readonly #db: Database;
  /** Recently authenticated access tokens (by hash), with their token's own expiry. */
  readonly #recent = new TtlCache<string, Authenticated & { expiresAt: number }>(30_000, 50_000);
  readonly #onRevoked: (sessionIds: string[]) => void;

  constructor(db: Database, onRevoked: (sessionIds: string[]) => void) {
    this.#db = db;
    this.#onRevoked = onRevoked;
  }

  async open(tx: Transaction, userId: number, deviceId: string, client: ClientInfo, now = new Date()): Promise<IssuedTokens> {
    const [session] = await tx
      .insert(sessions)
      .values({ userId, deviceId, device: client.device, ip: client.ip, place: client.place })
      .returning({ id: sessions.id });
    if (client.locale)
      await tx
        .update(users)
        .set({ locale: client.locale })
        .where(and(eq(users.id, userId), ne(users.locale, client.locale)));
    return issueTokens(tx, session.id, now);
  }

  /** The session behind a valid access token, or null. */
  async authenticate(accessToken: string, now = new Date()): Promise<Authenticated | null> {
    const hash = hashToken(accessToken);
    const known = this.#recent.get(hash, now.getTime());
    if (known && known.expiresAt > now.getTime()) return { userId: known.userId, sessionId: known.sessionId };
    const [row] = await this.#db
      .select({ userId: sessions.userId, sessionId: sessions.id, lastSeenAt: sessions.lastSeenAt, expiresAt: tokens.expiresAt })
      .from(tokens)
      .innerJoin(sessions, eq(sessions.id, tokens.sessionId))
      .where(and(eq(tokens.hash, hash), eq(tokens.kind, 'access'), isNull(sessions.revokedAt)));
    if (!row || row.expiresAt <= now) return null;
    this.#recent.set(hash, { userId: row.userId, sessionId: row.sessionId, expiresAt: row.expiresAt.getTime() }, now.getTime());
    if (now.getTime() - row.lastSeenAt.getTime() > lastSeenPrecisionMs) {
      await this.#db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
    }
    return { userId: row.userId, sessionId: row.sessionId };
  }

  /** Exchanges a refresh token for a new pair; the old pair stops working. */
  async rotate(refreshToken: string, now = new Date()): Promise<{ userId: number; tokens: IssuedTokens }> {
    let revoked: string[] = [];
    const outcome = await this.#db.transaction(async (tx) => {
      const hash = hashToken(refreshToken);
      const [claimed] = await tx
        .update(tokens)
        .set({ usedAt: now })
        .where(and(eq(tokens.hash, hash), eq(tokens.kind, 'refresh'), isNull(tokens.usedAt)))
        .returning({ sessionId: tokens.sessionId, expiresAt: tokens.expiresAt });
      if (!claimed) {
        const [reused] = await tx
          .select({ sessionId: tokens.sessionId })
          .from(tokens)
          .where(and(eq(tokens.hash, hash), eq(tokens.kind, 'refresh')));
        if (!reused) return { error: unauthorized() };
        revoked = await this.#revoke(tx, eq(sessions.id, reused.sessionId), now);
        return { error: new ApiError(ErrorCode.RefreshReused, 'refreshReused') };
      }
      const [session] = await tx.select().from(sessions).where(eq(sessions.id, claimed.sessionId));
      if (!session || session.revokedAt || claimed.expiresAt <= now) return { error: unauthorized() };
      await tx.delete(tokens).where(and(eq(tokens.sessionId, session.id), eq(tokens.kind, 'access')));
      this.forget([session.id]);
      await tx.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.id));
      return { userId: session.userId, tokens: await issueTokens(tx, session.id, now) };
    });
    // The reuse revocation commits before the request is refused.
    this.#ended(revoked);
    if ('error' in outcome) throw outcome.error;
    return outcome;
  }

  /** Signs one session out. */
  async revoke(sessionId: string, now = new Date()): Promise<void> {
    this.#ended(await this.#db.transaction((tx) => this.#revoke(tx, eq(sessions.id, sessionId), now)));
  }

  /** Signs out one of the user's sessions; false when the user has no such session still open. */
  async revokeOwn(auth: Authenticated, sessionId: string, now = new Date()): Promise<boolean> {
    const revoked = await this.#db.transaction((tx) => this.#revoke(tx, and(eq(sessions.userId, auth.userId), eq(sessions.id, sessionId))!, now));
    this.#ended(revoked);
    return revoked.length > 0;
  }

  /** Signs out every other device of the user; returns how many sessions ended. */
  async revokeOthers(auth: Authenticated): Promise<number> {
    return (await this.revokeWith(auth.userId, auth.sessionId, async () => {})).revoked;
  }

  /**
   * Runs `change` and signs out the user's sessions — all of them, or all but
   * `keep` — in one transaction: a password change or a deletion either happens
   * with its sign-outs or not at all. The ended sessions' connections close
   * once it commits. `check` runs first in the same transaction: when it
   * answers a refusal, what it wrote (a wrong code's failed try) commits,
   * nothing else happens, and the refusal is thrown.
   */
  async revokeWith<T>(
    userId: number,
    keep: string | null,
    change: (tx: Transaction) => Promise<T>,
    { check, now = new Date() }: { check?: (tx: Transaction) => Promise<ApiError | null>; now?: Date } = {},
  ): Promise<{ result: T; revoked: number }> {
    const { result, ids } = await committingRefusals(this.#db, async (tx) => {
      const refusal = await check?.(tx);
      if (refusal) return refused(refusal);
      const ids = await this.#revoke(tx, keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep))! : eq(sessions.userId, userId), now);
      return { ok: true, value: { result: await change(tx), ids } };
    });
    this.#ended(ids);
    return { result, revoked: ids.length };
  }

  /** Whether a session is still in use (what a token naming it, such as a store token, lives on). */
  async isActive(sessionId: string): Promise<boolean> {
    const [row] = await this.#db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), isActiveSession));
    return row !== undefined;
  }

  async list(auth: Authenticated): Promise<Session[]> {
    const rows = await this.#db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, auth.userId), isActiveSession))
      // This device first, then the others by when they were last active.
      .orderBy(sql`${sessions.id} = ${auth.sessionId} desc`, sql`${sessions.lastSeenAt} desc`);
    return rows.map((row) => ({
      Id: row.id,
      Device: row.device,
      CreatedAt: row.createdAt.toISOString(),
      LastSeenAt: row.lastSeenAt.toISOString(),
      Place: row.place,
      Current: row.id === auth.sessionId,
    }));
  }

  /** Forgets tokens expired for longer than a refresh token lives: past any use, even reuse detection (called at start). */
  async prune(now = new Date()): Promise<void> {
    await this.#db.delete(tokens).where(lt(tokens.expiresAt, new Date(now.getTime() - lifetimes.refreshTokenMs)));
  }

  async #revoke(tx: Transaction, which: SQL, now: Date): Promise<string[]> {
    const ids = (await revokeSessions(tx, which, now)).map((row) => row.id);
    this.forget(ids);
    return ids;
  }

  /** Forgets the remembered tokens of sessions that ended (here, on another instance, or by an operator). */
  forget(sessionIds: string[]): void {
    const ended = new Set(sessionIds);
    if (ended.size > 0) this.#recent.deleteWhere((entry) => ended.has(entry.sessionId));
  }

  /** Called once a revocation has committed. */
  #ended(sessionIds: string[]): void {
    if (sessionIds.length > 0) this.#onRevoked(sessionIds);
  }
}
