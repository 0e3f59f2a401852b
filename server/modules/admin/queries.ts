/**
 * What the operators' command reads from the database. Both ways of running it
 * — the CLI on a free database and the admin endpoint of a running server —
 * call these, and every value is plain JSON (dates as ISO strings), so the two
 * answer exactly alike.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { migrationsFolder, type Database } from '../../db/open.ts';
import { externalAccounts, sessions, tokens, users } from '../../db/schema.ts';

export interface UserSummary {
  id: number;
  phone: string | null;
  email: string | null;
  nickname: string;
  createdAt: string;
  activeSessions: number;
}

export interface UserDetail {
  id: number;
  phone: string | null;
  email: string | null;
  nickname: string;
  hasPassword: boolean;
  createdAt: string;
  externalAccounts: Array<{ id: number; provider: string; subject: string; displayName: string; boundAt: string }>;
  activeSessions: Array<{ id: string; device: string; deviceId: string; createdAt: string; lastSeenAt: string }>;
}

export interface MigrationStatus {
  tag: string;
  createdAt: string;
  applied: boolean;
}

/** A session still in use: not revoked and holding a token that has not expired — as the user's own session list counts them. */
const isActiveSession = and(isNull(sessions.revokedAt), sql`exists (select 1 from ${tokens} where ${tokens.sessionId} = ${sessions.id} and ${tokens.expiresAt} > now())`);

/** Postgres `serial` ids stop here; a longer number can only be a phone. */
const maxId = 2_147_483_647;

export async function listUsers(db: Database, limit: number): Promise<UserSummary[]> {
  // Serial ids follow creation, and their index spares the in-process database a sort of the whole table (DESIGN.md §6).
  const rows = await db.select().from(users).orderBy(desc(users.id)).limit(limit);
  // Counted for the listed users only, through the index on sessions.user_id.
  const counts = rows.length
    ? await db
        .select({ userId: sessions.userId, active: count() })
        .from(sessions)
        .where(and(inArray(sessions.userId, rows.map((row) => row.id)), isActiveSession))
        .groupBy(sessions.userId)
    : [];
  const activeByUser = new Map(counts.map((row) => [row.userId, row.active]));
  return rows.map((row) => ({
    id: row.id,
    phone: row.phone,
    email: row.email,
    nickname: row.nickname,
    createdAt: row.createdAt.toISOString(),
    activeSessions: activeByUser.get(row.id) ?? 0,
  }));
}

/** The user whose id, phone or e-mail is `key` (tried in that order), or null. */
export async function showUser(db: Database, key: string): Promise<UserDetail | null> {
  const user = await findUser(db, key.trim());
  if (!user) return null;
  const bound = await db.select().from(externalAccounts).where(eq(externalAccounts.userId, user.id)).orderBy(externalAccounts.id);
  const active = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), isActiveSession))
    .orderBy(desc(sessions.lastSeenAt));
  return {
    id: user.id,
    phone: user.phone,
    email: user.email,
    nickname: user.nickname,
    hasPassword: user.passwordHash !== null,
    createdAt: user.createdAt.toISOString(),
    externalAccounts: bound.map((account) => ({ id: account.id, provider: account.provider, subject: account.subject, displayName: account.displayName, boundAt: account.createdAt.toISOString() })),
    activeSessions: active.map((session) => ({ id: session.id, device: session.device, deviceId: session.deviceId, createdAt: session.createdAt.toISOString(), lastSeenAt: session.lastSeenAt.toISOString() })),
  };
}

/** Looks a user up by id, phone or e-mail, in that order. */
export async function findUser(db: Database, key: string) {
  const lookups = [
    /^\d+$/.test(key) && Number(key) <= maxId ? eq(users.id, Number(key)) : null,
    eq(users.phone, key),
    // E-mails are stored lower-cased (contract `Email`).
    key.includes('@') ? eq(users.email, key.toLowerCase()) : null,
  ];
  for (const where of lookups) {
    if (!where) continue;
    const [user] = await db.select().from(users).where(where);
    if (user) return user;
  }
  return null;
}

/**
 * Every migration of the journal, applied or not. Drizzle records an applied
 * migration in `drizzle.__drizzle_migrations` with the journal's `when` as its
 * `created_at` (a bigint: a string through node-postgres, a number in PGlite).
 */
export async function migrationStatus(db: Database): Promise<MigrationStatus[]> {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string; when: number }> };
  const applied = new Set<number>();
  // A database never migrated has no such table yet.
  const [{ present }] = rowsOf<{ present: boolean }>(await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`));
  if (present) {
    const rows = rowsOf<{ created_at: string | number }>(await db.execute(sql`select created_at from drizzle.__drizzle_migrations`));
    for (const row of rows) applied.add(Number(row.created_at));
  }
  return journal.entries.map((entry) => ({ tag: entry.tag, createdAt: new Date(entry.when).toISOString(), applied: applied.has(entry.when) }));
}

/** Raw `execute` is typed loosely over the two drivers, but both answer `{rows}`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
