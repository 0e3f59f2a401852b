/** The server's key pairs for sealed calls in the keys folder: first start, rotation, two instances on one folder, and the rotation window on an injected clock. */
import { constants, createHash, createPublicKey, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openKeyFolder } from '../../server/crypto/key-folder.ts';
import { Keyring, keyRotationWindowMs } from '../../server/crypto/keyring.ts';
import { SealError } from '../../server/crypto/sealed.ts';

/** A fresh AES key wrapped for a public key (base64 SPKI), as a page seals a call. */
function wrappedFor(publicSpki: string): { aesKey: Buffer; hex: string } {
  const aesKey = randomBytes(32);
  const key = createPublicKey({ key: Buffer.from(publicSpki, 'base64'), format: 'der', type: 'spki' });
  return { aesKey, hex: publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, aesKey).toString('hex') };
}

const fingerprint = (publicSpki: string) => createHash('sha256').update(Buffer.from(publicSpki, 'base64')).digest('hex');

const foreignSpki = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

describe('the keyring', () => {
  let folder: string;
  let clock: number;
  const now = () => clock;

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'beacon-keyring-'));
    clock = Date.UTC(2026, 4, 20, 10);
  });
  const open = async (progress?: (step: string) => void) => Keyring.open(await openKeyFolder(folder, progress), { now });
  /** `keys rotate` at `at`, as another process runs it: with a keyring of its own on the folder. */
  const rotateKeys = async (at: number) => (await Keyring.open(await openKeyFolder(folder), { now: () => at })).rotate();

  it('makes the first key pair once, whole and owner-only; a second instance on the folder reads the same', async () => {
    const steps: string[] = [];
    const a = await open((step) => steps.push(step));
    const b = await open((step) => steps.push(step));
    expect(await b.publicSpki()).toBe(await a.publicSpki());
    expect(steps).toEqual([expect.stringContaining('first start only')]);
    expect(readdirSync(folder)).toEqual(['rsa-private.pem']);
    expect(statSync(path.join(folder, 'rsa-private.pem')).mode & 0o777).toBe(0o600);
  });

  it('rotates: every instance serves the new key and opens envelopes for the new and the old one, without reopening', async () => {
    const a = await open();
    const b = await open();
    const old = await a.publicSpki();
    const sealedBefore = wrappedFor(old);

    const rotation = await rotateKeys(clock);
    const fresh = await b.publicSpki();
    expect(fresh).not.toBe(old);
    expect(rotation).toEqual({
      keys: [
        { fingerprint: fingerprint(fresh), acceptedUntil: null },
        { fingerprint: fingerprint(old), acceptedUntil: clock + keyRotationWindowMs },
      ],
      removed: 0,
    });
    expect(readdirSync(folder).sort()).toEqual(['rsa-private.pem', `rsa-retired-${clock}.pem`]);
    for (const file of readdirSync(folder)) expect(statSync(path.join(folder, file)).mode & 0o777).toBe(0o600);

    // A was not asked for the key since: the envelope it cannot open makes it look at the folder.
    const sealedAfter = wrappedFor(fresh);
    expect((await a.unwrapKey(sealedAfter.hex)).export()).toEqual(sealedAfter.aesKey);
    expect(await a.publicSpki()).toBe(fresh);
    for (const instance of [a, b]) {
      expect((await instance.unwrapKey(sealedBefore.hex)).export()).toEqual(sealedBefore.aesKey);
      expect((await instance.unwrapKey(sealedAfter.hex)).export()).toEqual(sealedAfter.aesKey);
      await expect(instance.unwrapKey(wrappedFor(foreignSpki).hex)).rejects.toThrow(SealError);
      await expect(instance.unwrapKey('not hex')).rejects.toThrow(SealError);
      await expect(instance.unwrapKey(undefined)).rejects.toThrow(SealError);
    }
  });

  it('stops opening a retired key’s envelopes when its window ends, and the next rotation deletes it', async () => {
    const running = await open();
    const sealedBefore = wrappedFor(await running.publicSpki());
    const rotatedAt = clock;
    await rotateKeys(rotatedAt);
    const sealedAfter = wrappedFor(await running.publicSpki());

    clock = rotatedAt + keyRotationWindowMs - 1;
    expect((await running.unwrapKey(sealedBefore.hex)).export()).toEqual(sealedBefore.aesKey);
    expect((await (await open()).unwrapKey(sealedBefore.hex)).export()).toEqual(sealedBefore.aesKey);

    clock = rotatedAt + keyRotationWindowMs;
    // Neither the instance that held it nor one starting now.
    for (const instance of [running, await open()]) {
      await expect(instance.unwrapKey(sealedBefore.hex)).rejects.toThrow(SealError);
      expect((await instance.unwrapKey(sealedAfter.hex)).export()).toEqual(sealedAfter.aesKey);
    }

    const next = await rotateKeys(clock);
    expect(next.removed).toBe(1);
    expect(next.keys.map((key) => key.acceptedUntil)).toEqual([null, clock + keyRotationWindowMs]);
    expect(readdirSync(folder).sort()).toEqual(['rsa-private.pem', `rsa-retired-${clock}.pem`]);
  });

  it('keeps every key retired within the window: after two rotations in a day, three keys open envelopes', async () => {
    const running = await open();
    const first = wrappedFor(await running.publicSpki());
    await rotateKeys(clock);
    const second = wrappedFor(await running.publicSpki());
    clock += 3600_000;
    const rotation = await rotateKeys(clock);
    const third = wrappedFor(await running.publicSpki());

    expect(rotation.keys).toHaveLength(3);
    for (const sealed of [first, second, third]) expect((await running.unwrapKey(sealed.hex)).export()).toEqual(sealed.aesKey);
  });
});
