/**
 * A backup's archive: regular files in a tar (tar-stream), written and read
 * whole in memory, so any `tar` lists and unpacks a backup. Reading refuses a
 * damaged or cut-off archive (tar-stream checks each header's checksum and
 * each file's length) instead of reading half of it.
 */
import { extract, pack } from 'tar-stream';

export interface TarEntry {
  /** A relative path with `/` between folders. */
  name: string;
  bytes: Uint8Array;
}

/** Thrown for bytes that are not a whole tar archive. */
export class TarError extends Error {}

/** The archive of `entries`, each file owner-only and dated `modifiedAt`. */
export async function tar(entries: TarEntry[], modifiedAt: Date): Promise<Buffer> {
  const archive = pack();
  for (const entry of entries) archive.entry({ name: entry.name, mode: 0o600, mtime: modifiedAt }, entry.bytes);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The regular files of an archive (folders and links are passed over); throws TarError for a damaged or cut-off one. */
export async function untar(archive: Uint8Array): Promise<TarEntry[]> {
  const reader = extract();
  const entries: TarEntry[] = [];
  reader.end(archive);
  try {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (entry.header.type === 'file') entries.push({ name: entry.header.name, bytes: Buffer.concat(chunks) });
    }
  } catch (error) {
    throw new TarError((error as Error).message);
  }
  return entries;
}
