/**
 * `keys rotate` on one of two instances that share a keys folder (as every
 * instance of a deployment does; here each has its own database, which keys
 * do not need): both take the new key without a restart, calls sealed for the
 * old key still work during the window, and nobody is logged out.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerKeyInUse } from '#contract/admin.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { ErrorCode } from '#contract/errors.ts';
import { identity, system } from '#contract/identity.ts';
import { keyRotationWindowMs } from '../../../server/crypto/keyring.ts';
import { verifyToken } from '../../../server/crypto/signed.ts';
import { loginBySms } from './codes.ts';
import { callerFor, runAdmin, startApp, type TestApp } from './harness.ts';
import { newCaller, startUrl } from './quick-login-browser.ts';

const spkiOf = (pem: string) => createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' }).toString('base64');
const fingerprint = (spki: string) => createHash('sha256').update(Buffer.from(spki, 'base64')).digest('hex');

describe('keys rotate on one of two instances sharing the keys folder', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beacon-rotate-'));
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await startApp({ DATA_DIR: dataDir });
    b = await startApp({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('takes effect on both without a restart, keeps the old key working for the window, and logs nobody out', async () => {
    const old = a.publicSpki;
    expect(b.publicSpki).toBe(old);
    // Logged in on each before the rotation, and a page of each holding the old key.
    const onA = await loginBySms(a, '13912340001', 'rotate-a');
    const onB = await loginBySms(b, '13912340002', 'rotate-b');
    const hub = await a.call(identity.hubToken, { token: onA.AccessToken });
    const hubToken = hub.body.data!.AccessToken;
    const quickLoginCaller = newCaller(a);

    const startedAt = Date.now();
    const rotation = await runAdmin<{ command: string; keys: ServerKeyInUse[]; removed: number }>(a, 'keys', 'rotate');
    expect(rotation.code).toBe(SUCCESS);
    const fresh = spkiOf(readFileSync(path.join(dataDir, 'keys', 'rsa-private.pem'), 'utf8'));
    expect(fresh).not.toBe(old);
    expect(rotation.data).toEqual({
      command: 'keys rotate',
      keys: [
        { fingerprint: fingerprint(fresh), acceptedUntil: null },
        { fingerprint: fingerprint(old), acceptedUntil: expect.any(String) },
      ],
      removed: 0,
    });
    const acceptedUntil = Date.parse(rotation.data.keys[1].acceptedUntil!);
    expect(acceptedUntil).toBeGreaterThanOrEqual(startedAt + keyRotationWindowMs);
    expect(acceptedUntil).toBeLessThanOrEqual(Date.now() + keyRotationWindowMs);

    // A's keyring learns of the new key as any instance's does: asked for the public key, it looks at the folder.
    expect((await a.call(system.publicKey)).body.data.Spki).toBe(fresh);
    // B ran nothing and was not asked for the key since: a call sealed for the new key is its first news of it.
    const sealedForNew = { a: await callerFor(a.app, fresh), b: await callerFor(b.app, fresh) };
    expect((await sealedForNew.b(identity.sessions, { token: onB.AccessToken })).body.code).toBe(SUCCESS);
    expect((await sealedForNew.a(identity.sessions, { token: onA.AccessToken })).body.code).toBe(SUCCESS);

    for (const [t, login] of [
      [a, onA],
      [b, onB],
    ] as const) {
      // Both serve the new key.
      expect((await t.call(system.publicKey)).body.data.Spki).toBe(fresh);
      // A page still holding the old key (the harness seals for the key of the app's start) goes on working, logged in.
      const sessions = await t.call(identity.sessions, { token: login.AccessToken });
      expect(sessions.body.code).toBe(SUCCESS);
      expect(sessions.body.data).toHaveLength(1);
      // So does a quick login started with a key wrapped for the old one.
      const start = await t.app.inject({ url: startUrl('', 'steam', quickLoginCaller), remoteAddress: '10.9.8.7' });
      expect(start.statusCode).toBe(302);
      // The hub token signed before the rotation still verifies on either.
      expect(verifyToken(t.app.keys.secret, 'hub', hubToken)?.sub).toBe(onA.User.Id);
    }

    // A key neither ever had is refused the usual way, and the site's client then asks for the current one.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const refused = await (await callerFor(b.app, stranger))(identity.sessions, { token: onB.AccessToken });
    expect(refused.body.code).toBe(ErrorCode.EncryptionInvalid);
  });
});
