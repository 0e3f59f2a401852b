/**
 * The server's long-lived secrets, made on first start: the RSA key pairs of
 * encrypted calls (keyring.ts, which `keys rotate` replaces while the server
 * runs) and the HMAC secret of signed tokens, cdkeys and code hashes (never
 * rotated: cdkeys are derived from it). Every instance of a deployment must
 * use the same ones. They live in the database, sealed, when KEYS_SEALING_KEY
 * is set (key-table.ts: instances on several hosts share them that way), and
 * in `DATA_DIR/keys` when it is not (key-folder.ts: one host, or a folder
 * every instance reads). docs/keys.md tells operators.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { StartupError } from '../startup-error.ts';
import { keysFolder, loadSecret, openKeyFolder } from './key-folder.ts';
import { keysInDatabase, openKeyTable } from './key-table.ts';
import { Keyring } from './keyring.ts';

export interface ServerKeys {
  /** The RSA key pairs that open sealed calls, and the public key to serve. */
  keyring: Keyring;
  /** HMAC secret for hub, store and customer-service tokens, and what cdkeys and codes are derived from. */
  secret: Buffer;
}

/** The keys, from the database or the folder as KEYS_SEALING_KEY says, made when missing; `progress` hears when that happens (first start only). */
export async function loadKeys(
  config: Pick<Config, 'DATA_DIR' | 'KEYS_SEALING_KEY'>,
  db: Database,
  progress: (step: string) => void = () => {},
): Promise<ServerKeys> {
  if (config.KEYS_SEALING_KEY) {
    const { store, secret } = await openKeyTable(db, config.KEYS_SEALING_KEY, config.DATA_DIR, progress);
    return { keyring: await Keyring.open(store), secret };
  }
  // An instance without the sealing key must not make keys of its own beside the ones the others use.
  if (await keysInDatabase(db))
    throw new StartupError(
      'The server keys of this database are in it (table server_keys), sealed with KEYS_SEALING_KEY, which is not set: set the KEYS_SEALING_KEY the other instances use (docs/keys.md).',
    );
  return { keyring: await Keyring.open(await openKeyFolder(keysFolder(config.DATA_DIR), progress)), secret: loadSecret(config.DATA_DIR) };
}
