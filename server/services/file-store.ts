/**
 * Uploaded files (avatars, raffle covers), named by their content hash, so a
 * name never changes meaning and browsers may keep a file for good. One
 * interface, two places, chosen once from the settings (plugins/uploads.ts): a
 * folder under DATA_DIR, or an S3-compatible bucket (bucket-store.ts), which
 * several hosts share without a shared disk. Either way a file is stored whole
 * or not at all, and a store that cannot take one says why (`StorageError`).
 */
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '#contract/errors.ts';
import { ApiError } from '../http/api-error.ts';
import { replaceFile } from './whole-file.ts';

/** The folder under DATA_DIR that holds every kind of upload, one subfolder each (backups take it whole). */
export const uploadsFolder = 'uploads';

/** The kinds of upload, each a folder (or a key prefix in a bucket) of its own; issued invoices are served only to their order's owner, never by `serveStore`. */
export type UploadKind = 'avatars' | 'raffles' | 'invoices';

/** A stored file as it is served. */
export interface StoredFile {
  body: Readable;
  /** Its size in bytes, when the storage says. */
  length?: number;
}

/** Where one kind of upload is kept. */
export interface FileStore {
  /** Stores `bytes` as `name`, whole or not at all; throws `StorageError` when the storage cannot take it. */
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** Removes `name`; one that is not there is fine. */
  remove(name: string): Promise<void>;
  /** The file stored as `name`, or null when there is none. */
  read(name: string): Promise<StoredFile | null>;
}

/** Where every kind of upload is kept: a store per kind, and where a backup finds the files. */
export interface Uploads {
  store(kind: UploadKind): FileStore;
  /** The folder that holds every kind (a PGlite backup copies it), or the bucket (backed up with its own tools). */
  readonly location: { folder: string } | { bucket: string };
  close(): void;
}

/** Why the storage did not take or give a file: no room (a full disk, a bucket's quota), or it could not be reached in time. */
export class StorageError extends Error {
  readonly reason: 'full' | 'unavailable';

  constructor(reason: 'full' | 'unavailable', options: { cause: unknown }) {
    super(reason === 'full' ? 'The uploads storage has no room for the file' : 'The uploads storage could not be reached', options);
    this.reason = reason;
  }
}

/** A storage failure as the customer hears it: no room (507), or unreachable (503); nothing was changed either way. */
export const storageRefusal = (error: StorageError): ApiError =>
  error.reason === 'full' ? new ApiError(ErrorCode.StorageFull, 'storageFull') : new ApiError(ErrorCode.Unavailable, 'storageUnavailable');

/** A name a store may hold: what `renderAvatar` and `storeCover` make, never a path (no slash, no leading dot). */
export const isStoredName = (name: string): boolean => /^[\w.-]+$/.test(name) && !name.startsWith('.');

/** Refuses a name that is not a stored file's before it reaches the storage. */
export function checkedName(name: string): string {
  if (!isStoredName(name)) throw new Error(`Not a stored file name: ${name}`);
  return name;
}

/** The content type a stored file is served with: images are re-encoded as WebP, and issued invoices are PDFs. */
export const contentTypeOf = (name: string): string =>
  name.endsWith('.webp') ? 'image/webp' : name.endsWith('.pdf') ? 'application/pdf' : 'application/octet-stream';

/** A file system's refusals that mean "no room": a full disk, a user's quota, a file larger than allowed. */
const noRoom = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export class FolderStore implements FileStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  #pathOf(name: string): string {
    return path.join(this.root, checkedName(name));
  }

  /** The same name already stored is the same content, so it is kept. */
  async put(name: string, bytes: Uint8Array): Promise<void> {
    const target = this.#pathOf(name);
    if (await stat(target).catch(() => null)) return;
    try {
      // Made when first needed, not at start: a server must start even on a full disk.
      await mkdir(this.root, { recursive: true });
      await replaceFile(target, bytes);
    } catch (error) {
      if (noRoom.has((error as NodeJS.ErrnoException).code ?? '')) throw new StorageError('full', { cause: error });
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    await rm(this.#pathOf(name), { force: true });
  }

  async read(name: string): Promise<StoredFile | null> {
    const file = this.#pathOf(name);
    const found = await stat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    return found?.isFile() ? { body: createReadStream(file), length: found.size } : null;
  }
}

/** Uploads in DATA_DIR/uploads, a folder per kind. */
export function folderUploads(dataDir: string): Uploads {
  const folder = path.resolve(dataDir, uploadsFolder);
  return { store: (kind) => new FolderStore(path.join(folder, kind)), location: { folder }, close: () => {} };
}

/**
 * Serves a store's files under `prefix`, from wherever they are kept (a bucket's files are
 * streamed through this instance, never a redirect to the bucket). A name never changes
 * meaning, so browsers keep a file for good and its ETag is its name.
 */
export function serveStore(app: FastifyInstance, store: FileStore, prefix: string): void {
  app.get<{ Params: { name: string } }>(`${prefix}/:name`, async (request, reply) => {
    const { name } = request.params;
    // Only a name the store could hold is asked of it: nothing a caller makes up reaches the storage.
    const file = isStoredName(name) ? await store.read(name) : null;
    if (!file) throw new ApiError(ErrorCode.NotFound, 'notFound');
    const etag = `"${name}"`;
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
    if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      file.body.destroy();
      return reply.code(304).send();
    }
    if (file.length !== undefined) reply.header('content-length', file.length);
    return reply.header('content-type', contentTypeOf(name)).send(file.body);
  });
}
