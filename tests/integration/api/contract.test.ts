/**
 * The contract holds both ways on the server: an answer outside its route's
 * schema fails loudly outside production (so a test sees the drift), and
 * larger answers are compressed for clients that accept it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { admin, adminTokenHeader } from '#contract/admin.ts';
import { route } from '#contract/api.ts';
import { text } from '#contract/fields.ts';
import { users } from '../../../server/db/schema.ts';
import { registerRoute } from '../../../server/http/route.ts';
import locale from '../../../server/plugins/locale.ts';
import { productionSettings } from '../production-settings.ts';
import { startApp, type TestApp } from './harness.ts';

const greeting = route({
  method: 'GET',
  path: '/greeting',
  encrypted: false,
  auth: 'none',
  shape: 'envelope',
  request: z.optional(z.strictObject({})),
  response: z.object({ Text: text() }),
});

let t: TestApp | undefined;
afterEach(() => t?.close());

/** An app with one extra route whose handler answers `data`. */
async function appAnswering(data: unknown, env: Record<string, string> = {}) {
  t = await startApp(env);
  await t.app.register(
    async (scope) => {
      await scope.register(locale);
      registerRoute(scope, greeting, async () => ({ data: data as { Text: string } }));
    },
    { prefix: '/api' },
  );
  return t;
}

describe('answers checked against the contract', () => {
  it('lets a well-formed answer through', async () => {
    const app = await appAnswering({ Text: 'hello' });
    expect((await app.call(greeting)).body).toMatchObject({ code: 200, data: { Text: 'hello' } });
  });

  it('fails an answer outside its schema with a 500 in development and tests', async () => {
    const app = await appAnswering({ Txet: 'hello' });
    expect((await app.app.inject({ url: '/api/greeting' })).statusCode).toBe(500);
  });

  it('does not spend the check in production', async () => {
    const app = await appAnswering({ Txet: 'hello' }, { NODE_ENV: 'production', ...productionSettings });
    expect((await app.app.inject({ url: '/api/greeting' })).json()).toMatchObject({ code: 200, data: { Txet: 'hello' } });
  });
});

describe('compression', () => {
  it('compresses a larger answer for a client that accepts it, and leaves small ones alone', async () => {
    t = await startApp();
    await t.app.db.insert(users).values(Array.from({ length: 30 }, (_, i) => ({ phone: `1380000${String(i).padStart(4, '0')}`, nickname: `User ${i}` })));
    const run = (command: string, encoding = 'br, gzip') =>
      t!.app.inject({
        method: 'POST',
        url: `/api${admin.run.path}`,
        remoteAddress: '127.0.0.1',
        headers: { [adminTokenHeader]: t!.app.adminToken, 'accept-encoding': encoding },
        payload: { command, args: {} },
      });
    const large = await run('users list');
    expect(large.headers['content-encoding']).toBe('br');
    const plain = await run('users list', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(large.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const small = await run('maintenance status');
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
