/**
 * The server's keys in the database (table `server_keys`, db/schema/server-keys.ts),
 * sealed with KEYS_SEALING_KEY (key-sealing.ts): how instances on several hosts,
 * each with a DATA_DIR of its own, share one set of keys and see a rotation
 * made by any process. Rows: `token-secret` (the HMAC secret), `rsa-current`
 * (the current private key, PKCS#8 PEM) and `rsa-retired-<ms>` (a previous one,
 * retired at <ms> since the epoch).
 *
 * A first start makes the secret and the first key pair, or takes them from
 * `DATA_DIR/keys` when that folder holds some (moving a deployment from the
 * folder to the database keeps its tokens and cdkeys valid), and inserts them
 * unless a row of that name is there: instances starting together all read back
 * the one set that was inserted first. Rows another sealing key sealed stop the
 * start before anything is written.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { eq, inArray, like, sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../db/database.ts';
import { serverKeys } from '../db/schema.ts';
import { StartupError } from '../startup-error.ts';
import { readFolderKeyPairs, readFolderSecret } from './key-folder.ts';
import { openKey, sealKey } from './key-sealing.ts';
import { inRotationWindow, newPrivateKeyPem, type KeyStore, type StoredKeyPairs } from './keyring.ts';

const secretName = 'token-secret';
const currentName = 'rsa-current';
const retiredPrefix = 'rsa-retired-';
const retiredName = (at: number) => `${retiredPrefix}${at}`;
const retiredAtOf = (name: string) => Number(name.slice(retiredPrefix.length));

type Row = { name: string; sealed: Buffer };

/** The first 12 bytes of a sealed value are its nonce, new for every sealing: a rotation always changes the current key's. */
const stampOf = (sealed: Buffer) => sealed.subarray(0, 12).toString('hex');

/** Whether the database has the table: not before this version's first start migrated it (an operators' command may open it before). */
async function hasKeyTable(db: Database): Promise<boolean> {
  return rowsOf<{ present: boolean }>(await db.execute(sql`select to_regclass('server_keys') is not null as present`))[0].present;
}

/** Whether the database holds server keys (false when it has no table for them yet). */
export async function keysInDatabase(db: Database): Promise<boolean> {
  return (await hasKeyTable(db)) && (await db.select({ name: serverKeys.name }).from(serverKeys).limit(1)).length > 0;
}

class KeyTable implements KeyStore {
  private readonly db: Database;
  private readonly sealingKey: Buffer;

  constructor(db: Database, sealingKey: Buffer) {
    this.db = db;
    this.sealingKey = sealingKey;
  }

  seal(name: string, plaintext: Buffer | string): Row {
    return { name, sealed: sealKey(this.sealingKey, name, Buffer.from(plaintext)) };
  }

  open({ name, sealed }: Row): Buffer {
    return openKey(this.sealingKey, name, sealed);
  }

  async stamp(): Promise<string> {
    const [row] = await this.db
      .select({ nonce: sql<string>`encode(substring(${serverKeys.sealed} from 1 for 12), 'hex')` })
      .from(serverKeys)
      .where(eq(serverKeys.name, currentName));
    if (!row) throw new Error(`The server key "${currentName}" is missing from the database (table server_keys)`);
    return row.nonce;
  }

  async read(): Promise<StoredKeyPairs> {
    // One statement: the current key and the retired ones as one moment saw them.
    const rows = await this.db
      .select({ name: serverKeys.name, sealed: serverKeys.sealed })
      .from(serverKeys)
      .where(sql`${serverKeys.name} = ${currentName} or ${serverKeys.name} like ${`${retiredPrefix}%`}`);
    const current = rows.find((row) => row.name === currentName);
    if (!current) throw new Error(`The server key "${currentName}" is missing from the database (table server_keys)`);
    return {
      stamp: stampOf(current.sealed),
      current: this.open(current).toString('utf8'),
      retired: rows.filter((row) => row !== current).map((row) => ({ pem: this.open(row).toString('utf8'), retiredAt: retiredAtOf(row.name) })),
    };
  }

  /** In one transaction that holds the current key's row, so rotations take turns and readers see the keys before or after, never between. */
  rotate(pem: string, now: number): Promise<{ removed: number }> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ name: serverKeys.name, sealed: serverKeys.sealed })
        .from(serverKeys)
        .where(eq(serverKeys.name, currentName))
        .for('update');
      if (current)
        await tx
          .insert(serverKeys)
          .values(this.seal(retiredName(now), this.open(current)))
          .onConflictDoNothing();
      const next = this.seal(currentName, pem);
      await tx
        .insert(serverKeys)
        .values(next)
        .onConflictDoUpdate({ target: serverKeys.name, set: { sealed: next.sealed, createdAt: sql`now()` } });
      const retired = await tx
        .select({ name: serverKeys.name })
        .from(serverKeys)
        .where(like(serverKeys.name, `${retiredPrefix}%`));
      const ended = retired.map((row) => row.name).filter((name) => !inRotationWindow(retiredAtOf(name), now));
      if (ended.length > 0) await tx.delete(serverKeys).where(inArray(serverKeys.name, ended));
      return { removed: ended.length };
    });
  }
}

/**
 * The keys in the database, sealed with `sealingKey`: made, or moved in from
 * `<dataDir>/keys`, on a first start. Refuses to start (StartupError) when the
 * rows were sealed with another key, and when `<dataDir>/keys` holds a secret
 * other than the database's (the folder's keys were not the ones moved in).
 */
export async function openKeyTable(
  db: Database,
  sealingKey: Buffer,
  dataDir: string,
  progress: (step: string) => void = () => {},
): Promise<{ store: KeyStore; secret: Buffer }> {
  if (!(await hasKeyTable(db)))
    throw new StartupError('The database has no table server_keys yet: start a server of this version on it first (it applies the migrations).');
  const table = new KeyTable(db, sealingKey);
  const rowsNamed = async () => new Map((await db.select({ name: serverKeys.name, sealed: serverKeys.sealed }).from(serverKeys)).map((row) => [row.name, row]));
  let rows = await rowsNamed();
  // Every row opens, or nothing is written: a wrong KEYS_SEALING_KEY never makes keys beside (or over) the real ones.
  for (const row of rows.values()) table.open(row);
  const folderSecret = await readFolderSecret(dataDir);
  if (!rows.has(secretName) || !rows.has(currentName)) {
    const folderKeys = await readFolderKeyPairs(dataDir);
    progress(
      folderSecret || folderKeys
        ? `Moving the server's keys from ${path.resolve(dataDir, 'keys')} into the database (first start with KEYS_SEALING_KEY)…`
        : "Making the server's keys in the database (first start only)…",
    );
    const made: Row[] = [];
    if (!rows.has(secretName)) made.push(table.seal(secretName, folderSecret ?? randomBytes(32)));
    if (!rows.has(currentName)) {
      made.push(table.seal(currentName, folderKeys?.current ?? (await newPrivateKeyPem())));
      const now = Date.now();
      for (const { pem, retiredAt } of folderKeys?.retired ?? []) if (inRotationWindow(retiredAt, now)) made.push(table.seal(retiredName(retiredAt), pem));
    }
    // Another instance starting at the same moment may have inserted first: its rows stay, and everybody reads them back.
    await db.insert(serverKeys).values(made).onConflictDoNothing();
    rows = await rowsNamed();
  }
  const secret = table.open(rows.get(secretName)!);
  if (folderSecret && !folderSecret.equals(secret))
    throw new StartupError(
      `${path.resolve(dataDir, 'keys', 'token-secret')} is not the secret the database holds (table server_keys): the database's keys were made before this folder's were moved in, ` +
        "and cdkeys and tokens made with one secret are not valid with the other. Keep the one they were made with: move the folder aside to use the database's, " +
        "or, with every instance stopped, delete the rows of server_keys to move the folder's in (docs/keys.md).",
    );
  return { store: table, secret };
}
