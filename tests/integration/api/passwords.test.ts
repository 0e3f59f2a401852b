/**
 * Password hashes: argon2id at OWASP's recommended cost for new hashes, and a
 * hash of an older scheme (scrypt at N=2^14) replaced at the next successful
 * login — never at a failed one.
 */
import { randomBytes, scrypt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identity } from '#contract/identity.ts';
import { users } from '../../../server/db/schema.ts';
import { hashPassword, verifyPassword } from '../../../server/modules/identity/passwords.ts';
import { startApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

/** A hash as the server wrote them before argon2id: `scrypt$N$r$p$salt$hash`, N=2^14. */
function oldScryptHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 }, (error, key) =>
      error ? reject(error) : resolve(['scrypt', 16384, 8, 1, salt.toString('base64'), key.toString('base64')].join('$')),
    ),
  );
}

describe('password hashes', () => {
  it('are argon2id with at least 19 MiB, 2 passes, a 16-byte salt, and check only the right password', async () => {
    const hash = await hashPassword('correct horse');
    const [, scheme, version, params, salt] = hash.split('$');
    expect(scheme).toBe('argon2id');
    expect(version).toBe('v=19');
    const cost = Object.fromEntries(
      params
        .split(',')
        .map((pair) => pair.split('='))
        .map(([k, v]) => [k, Number(v)]),
    );
    expect(cost.m).toBeGreaterThanOrEqual(19_456);
    expect(cost.t).toBeGreaterThanOrEqual(2);
    expect(Buffer.from(salt, 'base64').length).toBe(16);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsf', hash)).toBe(false);
    expect(await verifyPassword('correct horse', null)).toBe(false);
    // The same password twice gives two hashes (a fresh salt each time).
    expect(await hashPassword('correct horse')).not.toBe(hash);
  });

  it('upgrades an old scrypt hash at the next successful login, and not at a failed one', async () => {
    const phone = `139${String(Date.now()).slice(-8)}`;
    const [user] = await t.app.db
      .insert(users)
      .values({ phone, nickname: 'Old hash', passwordHash: await oldScryptHash('old but right') })
      .returning();
    const stored = async () => (await t.app.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id)))[0].hash!;
    const login = (Password: string) => t.call(identity.loginByPassword, { body: { Account: phone, Password, DeviceId: 'passwords-test' } });

    expect((await login('wrong')).body.code).not.toBe(200);
    expect(await stored()).toMatch(/^scrypt\$/);

    expect((await login('old but right')).body.code).toBe(200);
    expect(await stored()).toMatch(/^\$argon2id\$/);
    // The new hash holds the same password.
    expect((await login('old but right')).body.code).toBe(200);
    expect((await login('wrong')).body.code).not.toBe(200);
  });
});
