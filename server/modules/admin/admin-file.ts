/**
 * `<DATA_DIR>/admin.json`: where a running server tells the operators' command
 * how to reach it — its port, its admin token and which database it serves —
 * readable by the owner only. The database is named by a fingerprint of its
 * URL, never the URL itself, which may hold a password.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const adminFile = z.object({
  port: z.number().int().min(1).max(65535),
  token: z.string().min(1),
  /** `databaseFingerprint(DATABASE_URL)`: a command meant for another database must not go through this server. */
  database: z.string(),
});

export const databaseFingerprint = (databaseUrl: string): string => createHash('sha256').update(databaseUrl).digest('hex').slice(0, 32);

export type AdminEndpoint = z.infer<typeof adminFile>;

export const adminFilePath = (dataDir: string): string => path.join(dataDir, 'admin.json');

export function writeAdminFile(dataDir: string, endpoint: AdminEndpoint): void {
  const file = adminFilePath(dataDir);
  // Nothing else may have made DATA_DIR: with the keys in the database and the uploads in a bucket, nothing else is kept there.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // A file left by a killed server may have other permissions; `mode` only applies to a new file.
  rmSync(file, { force: true });
  writeFileSync(file, `${JSON.stringify(endpoint)}\n`, { mode: 0o600, flag: 'wx' });
}

/** The running server's endpoint, or null when there is no (readable, well-formed) file. */
export function readAdminFile(dataDir: string): AdminEndpoint | null {
  try {
    return adminFile.parse(JSON.parse(readFileSync(adminFilePath(dataDir), 'utf8')));
  } catch {
    return null;
  }
}

/** Removes the file only while it is still this server's: another instance sharing DATA_DIR may have written its own since. */
export function removeAdminFile(dataDir: string, token: string): void {
  if (readAdminFile(dataDir)?.token === token) rmSync(adminFilePath(dataDir), { force: true });
}
