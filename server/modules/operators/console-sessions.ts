/**
 * Console sessions: opened by a customer session and a second factor, kept
 * in an http-only cookie as an opaque token (stored hashed), and short — they
 * end when left idle, at a fixed age, at sign-out, when the customer session
 * they came from ends, or when the operator's role is taken away. A session's
 * CSRF value is an HMAC of its token hash: the page asks for it, and a page on
 * another site can neither read it nor send it.
 */
import { createHmac } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { OperatorRole } from '#contract/admin.ts';
import { consoleSessionLimits, type ConsoleSession } from '#contract/console.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../crypto/opaque-tokens.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { sessions, users } from '../../db/schema/identity.ts';
import { consoleSessions, operatorRoleGrants } from '../../db/schema/operators.ts';
import type { ConsoleCaller } from '../../http/auth.ts';

export class ConsoleSessions {
  readonly #db: Database;
  readonly #secret: Buffer;

  constructor(db: Database, secret: Buffer) {
    this.#db = db;
    this.#secret = secret;
  }

  csrfFor(sessionHash: string): string {
    return createHmac('sha256', this.#secret).update(`console-csrf:${sessionHash}`).digest('base64url');
  }

  /** Opens a session for the operator from their customer session; the token is for the cookie, the rest for the page. */
  async open(
    tx: Transaction,
    operator: { userId: number; nickname: string; role: OperatorRole },
    customerSessionId: string,
    address: string,
    now = new Date(),
  ): Promise<{ token: string; session: ConsoleSession }> {
    const token = newOpaqueToken();
    const hash = hashOpaqueToken(token);
    const expiresAt = new Date(now.getTime() + consoleSessionLimits.lifetimeMs);
    await tx.insert(consoleSessions).values({ hash, userId: operator.userId, customerSessionId, address, createdAt: now, lastSeenAt: now, expiresAt });
    return { token, session: this.describe({ ...operator, sessionHash: hash, expiresAt: expiresAt.getTime() }) };
  }

  describe(caller: ConsoleCaller): ConsoleSession {
    return { UserId: caller.userId, Nickname: caller.nickname, Role: caller.role, Csrf: this.csrfFor(caller.sessionHash), ExpiresAt: caller.expiresAt };
  }

  /** The operator behind a session token, or null when it has ended for any reason. */
  async authenticate(token: string, now = new Date()): Promise<ConsoleCaller | null> {
    const hash = hashOpaqueToken(token);
    const [row] = await this.#db
      .select({
        userId: consoleSessions.userId,
        nickname: users.nickname,
        role: operatorRoleGrants.role,
        expiresAt: consoleSessions.expiresAt,
        lastSeenAt: consoleSessions.lastSeenAt,
      })
      .from(consoleSessions)
      .innerJoin(sessions, and(eq(sessions.id, consoleSessions.customerSessionId), isNull(sessions.revokedAt)))
      .innerJoin(operatorRoleGrants, eq(operatorRoleGrants.userId, consoleSessions.userId))
      .innerJoin(users, eq(users.id, consoleSessions.userId))
      .where(and(eq(consoleSessions.hash, hash), isNull(consoleSessions.endedAt), gt(consoleSessions.expiresAt, now)));
    if (!row || now.getTime() - row.lastSeenAt.getTime() > consoleSessionLimits.idleMs) return null;
    // `last_seen_at` is written again only once this stale: far below the idle limit, so it never ends a session in use.
    if (now.getTime() - row.lastSeenAt.getTime() > consoleSessionLimits.lastUseSlackMs)
      await this.#db.update(consoleSessions).set({ lastSeenAt: now }).where(eq(consoleSessions.hash, hash));
    return { userId: row.userId, nickname: row.nickname, role: row.role, sessionHash: hash, expiresAt: row.expiresAt.getTime() };
  }

  async end(sessionHash: string, now = new Date()): Promise<void> {
    await this.#db
      .update(consoleSessions)
      .set({ endedAt: now })
      .where(and(eq(consoleSessions.hash, sessionHash), isNull(consoleSessions.endedAt)));
  }
}
