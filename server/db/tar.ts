/**
 * The tar format (POSIX ustar), as far as backups need it: regular files with
 * names of up to 100 characters, written and read whole in memory. A backup is
 * then a file any `tar` lists and unpacks; reading checks each header's
 * checksum and each file's length, so a damaged or cut-off file is refused
 * instead of half read.
 */

export interface TarEntry {
  /** A relative path with `/` between folders. */
  name: string;
  bytes: Uint8Array;
}

/** Thrown for bytes that are not a whole tar archive. */
export class TarError extends Error {}

const block = 512;

function writeField(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, length, 'utf8');
}

/** An octal number in `length` bytes: digits, then a NUL. */
const octal = (value: number, length: number) => `${value.toString(8).padStart(length - 1, '0')}\0`;

/** The sum of the header's bytes with its checksum field counted as spaces. */
function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < block; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  return sum;
}

function header(entry: TarEntry, modifiedAt: Date): Buffer {
  if (Buffer.byteLength(entry.name) > 100) throw new TarError(`A name in a tar archive has 100 bytes at most: ${entry.name}`);
  const head = Buffer.alloc(block);
  writeField(head, 0, 100, entry.name);
  writeField(head, 100, 8, octal(0o600, 8));
  writeField(head, 108, 8, octal(0, 8));
  writeField(head, 116, 8, octal(0, 8));
  writeField(head, 124, 12, octal(entry.bytes.length, 12));
  writeField(head, 136, 12, octal(Math.floor(modifiedAt.getTime() / 1000), 12));
  writeField(head, 156, 1, '0');
  writeField(head, 257, 8, 'ustar\u000000');
  writeField(head, 148, 8, `${checksum(head).toString(8).padStart(6, '0')}\0 `);
  return head;
}

const padding = (length: number) => Buffer.alloc((block - (length % block)) % block);

/** The archive of `entries`, each file dated `modifiedAt`. */
export function tar(entries: TarEntry[], modifiedAt: Date): Buffer {
  const parts = entries.flatMap((entry) => [header(entry, modifiedAt), entry.bytes, padding(entry.bytes.length)]);
  // The end: two empty blocks.
  return Buffer.concat([...parts, Buffer.alloc(2 * block)]);
}

const readString = (head: Buffer, offset: number, length: number) => head.toString('utf8', offset, offset + length).replace(/\0.*$/s, '');
const readOctal = (head: Buffer, offset: number, length: number) => parseInt(readString(head, offset, length).trim() || '0', 8);

/** The regular files of an archive (folders and links are passed over); throws TarError for a damaged or cut-off one. */
export function untar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  for (let offset = 0; ;) {
    if (offset + block > archive.length) throw new TarError('the archive ends before its end marker (cut off?)');
    const head = archive.subarray(offset, offset + block);
    if (head.every((byte) => byte === 0)) return entries;
    if (readOctal(head, 148, 8) !== checksum(head)) throw new TarError(`a header at byte ${offset} is damaged`);
    const prefix = readString(head, 345, 155);
    const name = `${prefix ? `${prefix}/` : ''}${readString(head, 0, 100)}`;
    const size = readOctal(head, 124, 12);
    const start = offset + block;
    if (start + size > archive.length) throw new TarError(`${name} is cut off`);
    const type = readString(head, 156, 1);
    if (type === '0' || type === '') entries.push({ name, bytes: archive.subarray(start, start + size) });
    offset = start + size + padding(size).length;
  }
}
