/**
 * The cloud-idle game list against the real app, on PGlite and (in the
 * scale-out suite) on PostgreSQL: names from the bundled list, the limit held
 * under racing adds, nobody touching another user's list, and the operators'
 * `idle games` and `idle set --game <appid>:<cards>`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '#contract/errors.ts';
import { idleGameCalls, maxIdleGames } from '#contract/idle-games.ts';
import { idleGames } from '../../../server/db/schema.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms } from './codes.ts';
import { runAdmin, startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;
const newPhone = () => `1340000${String(++phoneSeq).padStart(4, '0')}`;

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function login() {
  const phone = newPhone();
  const result = await loginBySms(t, phone, 'idle-games-device');
  return { phone, token: result.AccessToken, userId: result.User.Id };
}

const operator = (...words: string[]) => runAdmin(t, ...words);

describe('the game list', () => {
  it('adds games by app id, named from the bundled list or not at all, once each, and removes them', async () => {
    const { token } = await login();
    expect((await t.call(idleGameCalls.list, { token })).body.data).toEqual([]);
    await t.call(idleGameCalls.add, { body: { AppId: 730 }, token });
    await t.call(idleGameCalls.add, { body: { AppId: 730 }, token });
    const listed = await t.call(idleGameCalls.add, { body: { AppId: 3_999_990 }, token });
    expect(listed.body.data).toMatchObject([
      { AppId: 730, Name: 'Counter-Strike 2' },
      { AppId: 3_999_990, Name: null },
    ]);
    const removed = await t.call(idleGameCalls.remove, { params: { appId: 730 }, token });
    expect(removed.body.data.map((game) => game.AppId)).toEqual([3_999_990]);
  });

  it('refuses an app id that is not a positive whole number', async () => {
    const { token } = await login();
    for (const AppId of [0, -5, 1.5, '730']) expect((await t.call(idleGameCalls.add, { body: { AppId }, token })).status).toBe(400);
  });

  it('holds at most the limit, even when adds race at the last place', async () => {
    const { token, userId } = await login();
    await t.app.db.insert(idleGames).values(Array.from({ length: maxIdleGames - 1 }, (_, i) => ({ userId, appId: 100_000 + i })));
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => t.call(idleGameCalls.add, { body: { AppId: 200_000 + n }, token, locale: 'ja' })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(refused).toHaveLength(4);
    expect(refused[0].body).toMatchObject({
      code: ErrorCode.IdleGamesFull,
      message: `リストがいっぱいです。登録できるゲームは最大${maxIdleGames}本です。先にどれかを削除してください。`,
    });
    expect((await t.call(idleGameCalls.list, { token })).body.data).toHaveLength(maxIdleGames);
  });

  it("never reaches another user's list", async () => {
    const owner = await login();
    const other = await login();
    await t.call(idleGameCalls.add, { body: { AppId: 570 }, token: owner.token });
    const removed = await t.call(idleGameCalls.remove, { params: { appId: 570 }, token: other.token });
    expect(removed.status).toBe(404);
    expect((await t.call(idleGameCalls.list, { token: owner.token })).body.data).toMatchObject([{ AppId: 570 }]);
    expect((await t.call(idleGameCalls.list, { token: other.token })).body.data).toEqual([]);
  });

  it.each([
    ['list', idleGameCalls.list, {}],
    ['add', idleGameCalls.add, { body: { AppId: 730 } }],
    ['remove', idleGameCalls.remove, { params: { appId: 730 } }],
  ] as const)('%s refuses no token, an expired token and a revoked token with 401', (_, route, options) => expectBadTokensRefused(t, route, options, login));
});

describe('the operators', () => {
  it("read a user's list, and name a bundled game in `idle set` by its app id alone", async () => {
    const { phone, token } = await login();
    await t.call(idleGameCalls.add, { body: { AppId: 440 }, token });
    expect((await operator('idle', 'games', phone)).data).toMatchObject({ command: 'idle games', games: [{ AppId: 440, Name: 'Team Fortress 2' }] });
    const set = await operator('idle', 'set', phone, '--state', 'Idling', '--game', '440:2');
    expect(set.data).toMatchObject({ status: { Games: [{ AppId: 440, CardsRemaining: 2, Name: 'Team Fortress 2' }] } });
    // A game not in the bundled list needs its name: the words are refused before anything is sent.
    await expect(operator('idle', 'set', phone, '--state', 'Idling', '--game', '3999990:2')).rejects.toThrow(/--game takes <appid>:<cards>\[:<name>\]/);
  });
});
