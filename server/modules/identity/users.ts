/**
 * Users: as the API shows them (contract UserInfo), found by what people type,
 * and created on first login. User infos are remembered for 30 s per app
 * instance (see services/ttl-cache.ts); changes made here drop them at once.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { avatarRules, nicknameProblem, nicknameRules } from '#contract/account.ts';
import type { UserInfo } from '#contract/identity.ts';
import type { Database, Transaction } from '../../db/database.ts';
import { preparedOn } from '../../db/prepared.ts';
import { externalAccounts, users } from '../../db/schema/identity.ts';
import { TtlCache } from '../../services/ttl-cache.ts';

type UserRow = typeof users.$inferSelect;

/** 13812345678 → 138****5678; short numbers keep only their last two digits. */
export function maskPhone(phone: string): string {
  return phone.length >= 8 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : `****${phone.slice(-2)}`;
}

export function defaultNickname(target: string): string {
  return `Beacon-${target.replace(/\W/g, '').slice(-4)}`;
}

/**
 * The nickname a new account takes from the name its quick-login provider
 * gives (a Steam persona name, an Xbox gamertag, a QQ nickname): what in it
 * keeps the nickname rules — symbols dropped, spaces collapsed, as many whole
 * words as fit the longest nickname (or the first word cut to it) — or null
 * when the provider gave no name (its identity's display name is then the
 * subject) or too little of it is left.
 */
export function nicknameFromProvider(identity: { subject: string; displayName: string }): string | null {
  if (identity.displayName === identity.subject) return null;
  const words = identity.displayName
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}_\-.·]+/gu, ' ')
    .trim()
    .split(' ');
  const length = (text: string) => [...text].length;
  let name = [...words[0]].slice(0, nicknameRules.max).join('');
  for (const word of words.slice(1)) {
    if (length(name) + 1 + length(word) > nicknameRules.max) break;
    name = `${name} ${word}`;
  }
  return nicknameProblem(name) === null ? name : null;
}

/** Postgres `serial` ids stop here; a longer number can only be a phone. */
const maxId = 2_147_483_647;

/** The user whose phone or e-mail is `account`, as typed at login (e-mails are stored lower-cased, contract `Email`). */
const userByEmail = preparedOn((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.email, sql.placeholder('email')))
    .prepare('user_by_email'),
);
const userByPhone = preparedOn((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.phone, sql.placeholder('phone')))
    .prepare('user_by_phone'),
);

export async function findByAccount(db: Database, account: string): Promise<UserRow | null> {
  const key = account.trim();
  const [user] = key.includes('@') ? await userByEmail(db).execute({ email: key.toLowerCase() }) : await userByPhone(db).execute({ phone: key });
  return user ?? null;
}

/** The user an operator names by id, phone or e-mail, tried in that order. */
export async function findByKey(db: Database, key: string): Promise<UserRow | null> {
  const trimmed = key.trim();
  if (/^\d+$/.test(trimmed) && Number(trimmed) <= maxId) {
    const [user] = await db
      .select()
      .from(users)
      .where(eq(users.id, Number(trimmed)));
    if (user) return user;
  }
  return findByAccount(db, trimmed);
}

export async function emailTaken(db: Database, email: string): Promise<boolean> {
  return (await findByAccount(db, email)) !== null;
}

/**
 * The user of this phone, created on first login (named `nickname`, or after
 * the phone when none is given); racing first logins end up with the same single row.
 */
export async function userForPhone(tx: Transaction, phone: string, nickname = defaultNickname(phone)): Promise<number> {
  const [created] = await tx.insert(users).values({ phone, nickname }).onConflictDoNothing({ target: users.phone }).returning({ id: users.id });
  if (created) return created.id;
  const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.phone, phone));
  return existing.id;
}

/** A new e-mail user, or null when the address is taken (also by a racing registration). */
export async function createEmailUser(tx: Transaction, email: string, passwordHash: string): Promise<number | null> {
  const [created] = await tx
    .insert(users)
    .values({ email, passwordHash, nickname: defaultNickname(email.split('@')[0]) })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  return created?.id ?? null;
}

/** Replaces a password hash with one of today's scheme, unless the password changed since `old` was read. */
export async function replacePasswordHash(tx: Transaction, userId: number, old: string, passwordHash: string): Promise<void> {
  await tx
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, userId), eq(users.passwordHash, old)));
}

/**
 * How many ways the user has to log in: a phone (SMS codes), an e-mail with a
 * password, and each bound quick-login identity. Locks the user's row, so two
 * racing removals cannot both take what they each think is not the last way.
 */
export async function loginWays(tx: Transaction, userId: number): Promise<number> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user) return 0;
  const [{ bound }] = await tx.select({ bound: count() }).from(externalAccounts).where(eq(externalAccounts.userId, userId));
  return (user.phone ? 1 : 0) + (user.email && user.passwordHash ? 1 : 0) + bound;
}

function toUserInfo(user: UserRow, bound: Array<typeof externalAccounts.$inferSelect>, avatarBase: string): UserInfo {
  return {
    Id: user.id,
    NickName: user.nickname,
    Phone: user.phone ? maskPhone(user.phone) : null,
    Email: user.email,
    // In the order of avatarRules.sizes, largest first: the first is the one shown, and jsonb keeps no order.
    AvatarUrl: Object.fromEntries(
      Object.keys(avatarRules.sizes).flatMap((size) => (user.avatarUrl[size] ? [[size, `${avatarBase}/${user.avatarUrl[size]}`]] : [])),
    ),
    HasPassword: user.passwordHash !== null,
    CreatedAt: user.createdAt.toISOString(),
    ExternalAccounts: bound.map((account) => ({
      Id: account.id,
      Provider: account.provider,
      Subject: account.subject,
      DisplayName: account.displayName,
      BoundAt: account.createdAt.toISOString(),
    })),
  };
}

export class UserInfoStore {
  readonly #db: Database;
  readonly #avatarBase: string;
  readonly #recent = new TtlCache<number, UserInfo>(30_000, 50_000);

  /** `avatarBase` is where avatar files are served (`users.avatar_url` holds their names). */
  constructor(db: Database, avatarBase: string) {
    this.#db = db;
    this.#avatarBase = avatarBase;
  }

  /** The user as the API shows it; `fresh` skips the recent copy. */
  async load(userId: number, options: { fresh?: boolean } = {}): Promise<UserInfo | null> {
    const known = options.fresh ? undefined : this.#recent.get(userId);
    if (known) return known;
    const [user] = await this.#db.select().from(users).where(eq(users.id, userId));
    if (!user) return null;
    const bound = await this.#db.select().from(externalAccounts).where(eq(externalAccounts.userId, userId)).orderBy(externalAccounts.id);
    const info = toUserInfo(user, bound, this.#avatarBase);
    this.#recent.set(userId, info);
    return info;
  }

  /** The user after a change: this instance forgets its copy at once. */
  async reload(userId: number): Promise<UserInfo | null> {
    return this.load(userId, { fresh: true });
  }

  /** Forgets a deleted user. */
  forget(userId: number): void {
    this.#recent.delete(userId);
  }

  /** Unbinds one of the user's external accounts, unless it is their last way to log in. */
  async unbind(userId: number, accountId: number): Promise<'unbound' | 'notFound' | 'lastWay'> {
    const outcome = await this.#db.transaction(async (tx) => {
      if ((await loginWays(tx, userId)) <= 1) {
        const [own] = await tx
          .select({ id: externalAccounts.id })
          .from(externalAccounts)
          .where(and(eq(externalAccounts.id, accountId), eq(externalAccounts.userId, userId)));
        return own ? 'lastWay' : 'notFound';
      }
      const removed = await tx
        .delete(externalAccounts)
        .where(and(eq(externalAccounts.id, accountId), eq(externalAccounts.userId, userId)))
        .returning({ id: externalAccounts.id });
      return removed.length > 0 ? 'unbound' : 'notFound';
    });
    this.#recent.delete(userId);
    return outcome;
  }
}
