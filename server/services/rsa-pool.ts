/**
 * RSA's private-key work, off the event loop: unwrapping a sealed call's AES
 * key (RSA-OAEP) and signing a request to WeChat Pay (RSA-SHA256) cost about
 * 0.4 and 0.7 ms of CPU each. On the main thread every other request waits
 * meanwhile, and the process uses one core however many it has. A pool of
 * worker threads (piscina), one per core, runs them (rsa-worker.ts); the event
 * loop hands each over and goes on with I/O.
 *
 * One pool per process, made on first use: threads start as work arrives and
 * end after a minute without any, and an idle pool never keeps the process
 * alive, so a server, a test or a command that closes needs to do nothing.
 */
import { availableParallelism } from 'node:os';
import type { KeyObject } from 'node:crypto';
import Piscina from 'piscina';

let pool: Piscina | undefined;

function threads(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./rsa-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: availableParallelism(),
    idleTimeout: 60_000,
  });
  return pool;
}

/** RSA-OAEP-SHA256 decryption with `key`; rejects when `data` was not wrapped for it. */
export async function decryptOaep(key: KeyObject, data: Uint8Array): Promise<Buffer> {
  const plain: Uint8Array = await threads().run({ key, data }, { name: 'decryptOaep' });
  return Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength);
}

/** An RSA-SHA256 signature of `message` with `key`, in base64. */
export function signSha256(key: KeyObject, message: string): Promise<string> {
  return threads().run({ key, message }, { name: 'signSha256' });
}
