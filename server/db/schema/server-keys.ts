/**
 * The server's keys, when KEYS_SEALING_KEY keeps them in the database
 * (server/crypto/key-table.ts) instead of `DATA_DIR/keys`: one row per key,
 * named as its file is (`token-secret`, `rsa-current`, `rsa-retired-<ms>`),
 * sealed with AES-256-GCM under the sealing key with the row's name bound in
 * (crypto/key-sealing.ts), so the table alone opens nothing.
 */
import { customType, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** Raw bytes: node-postgres reads bytea as a Buffer, PGlite as a Uint8Array; both come back as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  /** The nonce (12 bytes), the ciphertext and GCM's tag (16 bytes), one after the other. */
  sealed: bytea('sealed').notNull(),
  createdAt: createdAt(),
});
