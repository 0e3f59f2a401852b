/**
 * The check every authenticated call gets: no token, a made-up one, an expired
 * one and a revoked one are each a 401, before the request is even looked at
 * (`options` may be a well-formed call or not) — "need to log in" without a
 * token, "login expired" with one that does not work.
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { identity } from '#contract/identity.ts';
import type { CallOptions, TestApp } from './harness.ts';

export async function expectBadTokensRefused(
  t: TestApp,
  route: ApiRoute,
  options: CallOptions,
  /** A fresh login of its own: its session is expired or revoked by the check. */
  login: () => Promise<{ token: string; userId: number }>,
): Promise<void> {
  const expect401 = async (token?: string) => {
    const response = await t.call(route, { ...options, token });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 401, message: token ? 'Your login has expired. Please log in again.' : 'You need to log in.' });
  };
  await expect401();
  await expect401('not-a-token');

  // Expired before it was ever used, so no instance remembers it as valid.
  const expired = await login();
  await t.app.db.execute(
    sql`update tokens set expires_at = now() - interval '1 second' where session_id in (select id from sessions where user_id = ${expired.userId})`,
  );
  await expect401(expired.token);

  const revoked = await login();
  expect((await t.call(identity.logout, { token: revoked.token })).status).toBe(200);
  await expect401(revoked.token);
}
