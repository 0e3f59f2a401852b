/** Users as the API shows them (contract UserInfo), and finding or creating them. */
import { eq } from 'drizzle-orm';
import type { UserInfo } from '../../../contract/identity.ts';
import type { Database, Transaction } from '../../db/open.ts';
import { externalAccounts, users } from '../../db/schema.ts';
import { TtlCache } from './session-cache.ts';

type UserRow = typeof users.$inferSelect;

/** 13812345678 → 138****5678; short numbers keep only their last two digits. */
export function maskPhone(phone: string): string {
  return phone.length >= 8 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : `****${phone.slice(-2)}`;
}

export function defaultNickname(target: string): string {
  return `Beacon-${target.replace(/\W/g, '').slice(-4)}`;
}

const recentUsers = new TtlCache<number, UserInfo>(30_000, 50_000);

export async function loadUserInfo(db: Database | Transaction, userId: number): Promise<UserInfo | null> {
  const known = recentUsers.get(userId);
  if (known) return known;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const bound = await db.select().from(externalAccounts).where(eq(externalAccounts.userId, userId)).orderBy(externalAccounts.id);
  const info = toUserInfo(user, bound);
  recentUsers.set(userId, info);
  return info;
}

/** Call after changing a user: the next read goes to the database. */
export function forgetUserInfo(userId: number): void {
  recentUsers.delete(userId);
}

function toUserInfo(user: UserRow, bound: Array<typeof externalAccounts.$inferSelect>): UserInfo {
  return {
    Id: user.id,
    NickName: user.nickname,
    Phone: user.phone ? maskPhone(user.phone) : null,
    Email: user.email,
    AvatarUrl: user.avatarUrl,
    HasPassword: user.passwordHash !== null,
    CreatedAt: user.createdAt.toISOString(),
    ExternalAccounts: bound.map((account) => ({ Id: account.id, Provider: account.provider, DisplayName: account.displayName, BoundAt: account.createdAt.toISOString() })),
  };
}

/** The user of this phone, created on first login; racing first logins end up with the same single row. */
export async function userForPhone(tx: Transaction, phone: string): Promise<number> {
  const [created] = await tx.insert(users).values({ phone, nickname: defaultNickname(phone) }).onConflictDoNothing({ target: users.phone }).returning({ id: users.id });
  if (created) return created.id;
  const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.phone, phone));
  return existing.id;
}
