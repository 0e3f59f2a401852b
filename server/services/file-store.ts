/**
 * Uploaded files (avatars, raffle covers): a folder under DATA_DIR, files named by their
 * content hash, so a name never changes meaning and browsers may keep a file
 * for good. Writes go to a temporary name first, so a reader never sees half a
 * file.
 */
import { randomBytes } from 'node:crypto';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { mkdirSync } from 'node:fs';
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The folder under DATA_DIR that holds every kind of upload, one subfolder each (backups take it whole). */
export const uploadsFolder = 'uploads';

/** The store of one kind of upload (`avatars`, `raffles`) under DATA_DIR. */
export const uploadStore = (dataDir: string, kind: string): FolderStore => new FolderStore(path.join(dataDir, uploadsFolder, kind));

export class FolderStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    mkdirSync(this.root, { recursive: true });
  }

  #pathOf(name: string): string {
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.')) throw new Error(`Not a stored file name: ${name}`);
    return path.join(this.root, name);
  }

  /** Stores `bytes` as `name`; the same name already stored is the same content, so it is kept. */
  async put(name: string, bytes: Uint8Array): Promise<void> {
    const target = this.#pathOf(name);
    if (await stat(target).catch(() => null)) return;
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, target);
  }

  async remove(name: string): Promise<void> {
    await rm(this.#pathOf(name), { force: true });
  }
}

/** Serves a store's files under `prefix`: a name never changes meaning, so browsers keep a file for good. */
export async function serveStore(app: FastifyInstance, store: FolderStore, prefix: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: store.root,
    prefix: `${prefix}/`,
    decorateReply: false,
    index: false,
    list: false,
    maxAge: '365d',
    immutable: true,
  });
}
