/**
 * Raffles end to end: the public calls and their cache times, registering,
 * the operators' draw and the scheduled one, checking a draw from what it
 * publishes, claims, the instant raffle and its provably fair rolls, every
 * user seeing only their own part, auth on every call, and the races: a
 * thousand registrations at once, one user registering fifty times, five
 * hundred users after ten prizes, and draws and claims started twice.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { accountCalls } from '#contract/account.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RaffleSummary, RaffleWinnerEntry } from '#contract/admin.ts';
import { commerceCalls } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { localeCodes } from '#contract/locales.ts';
import { raffleCalls, raffleRules, type LocalizedText, type Prize } from '#contract/raffle.ts';
import { commitmentOf, drawWinners, instantRoll } from '#contract/raffle-draw.ts';
import { parseWords, UsageError } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import { shellActor } from '../../../server/db/audit.ts';
import { rowsOf } from '../../../server/db/database.ts';
import { raffleEntries, raffles, walletLedger } from '../../../server/db/schema.ts';
import { createRaffle } from '../../../server/modules/raffle/definition.ts';
import type { RaffleDefinition } from '#contract/raffle.ts';
import { drawRaffle, drawsJob, dueDraws, waitingForValue } from '../../../server/modules/raffle/draws.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms } from './codes.ts';
import { loggedInUsers, runAdmin, startApp, type TestApp } from './harness.ts';

/** Who draws and creates raffles in these tests, for the audit log. */
const operator = shellActor('ops@shop', null);

let t: TestApp;
let phoneSeq = 0;
const newUser = async () => {
  const login = await loginBySms(t, `1392500${String(++phoneSeq).padStart(4, '0')}`, `raffle-device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
};
const users = (count: number, row?: Parameters<typeof loggedInUsers>[2]) => loggedInUsers(t, count, row);

beforeAll(async () => {
  t = await startApp();
  // The schedule draws due raffles every minute; here the tests draw them, so a due raffle is drawn exactly when a test says.
  await t.app.jobs.offWork(drawsJob);
});
afterAll(() => t.close());

const minute = 60_000;
const day = 86_400_000;
const at = (fromNow: number) => new Date(Date.now() + fromNow).toISOString();

/** A text in every interface language. */
const everywhere = (text: string) => Object.fromEntries(localeCodes.map((locale) => [locale, `${text} (${locale})`])) as LocalizedText;
const walletPrize = (name: string, Quantity: number, Amount: number): Prize => ({ Name: everywhere(name), Quantity, Grant: { Kind: 'wallet', Amount } });

const registrationRaffle = (more: Partial<RaffleDefinition> = {}): RaffleDefinition => ({
  Kind: 'registration',
  Title: everywhere('Test raffle'),
  Description: everywhere('Register once; the draw picks the winners.'),
  Prizes: [walletPrize('CN¥50', 1, 5000), walletPrize('CN¥5', 3, 500)],
  OpensAt: at(-day),
  ClosesAt: at(day),
  DrawAt: at(day + minute),
  PublicSource: everywhere('The next lottery draw'),
  ...more,
});

const instantRaffle = (more: Partial<RaffleDefinition> = {}): RaffleDefinition => ({
  Kind: 'instant',
  Title: everywhere('Instant raffle'),
  Description: everywhere('Draw and see at once.'),
  Prizes: [walletPrize('CN¥1', 100, 100)],
  OpensAt: at(-day),
  ClosesAt: at(30 * day),
  Odds: 500_000,
  PerUserLimit: 3,
  ...more,
});

/** Made by the module, as the operators' command makes it. */
const create = async (definition: RaffleDefinition) => (await createRaffle(t.app.db, operator, definition, null)).id;

type RaffleAnswer = { raffle: RaffleSummary | null; winners: RaffleWinnerEntry[]; refused: string | null; pushed: boolean };
const admin = (...command: string[]) => runAdmin<RaffleAnswer>(t, ...command);

const folder = mkdtempSync(path.join(tmpdir(), 'beacon-raffles-'));
let fileSeq = 0;
/** Made by the operators' command from a definition file. */
async function createByCommand(definition: RaffleDefinition | Record<string, unknown>) {
  const file = path.join(folder, `raffle-${++fileSeq}.json`);
  writeFileSync(file, JSON.stringify(definition));
  return admin('raffle', 'create', '--file', file);
}

const info = (id: number | string) => t.call(raffleCalls.info, { params: { id } });
const enter = (token: string, id: number) => t.call(raffleCalls.registration, { token, params: { id } });
const ownResult = (token: string, id: number) => t.call(raffleCalls.result, { token, params: { id } });
const winners = (id: number, page: number, size: number) => t.call(raffleCalls.winners, { params: { id, a: page, b: size } });
const claim = (token: string, id: number) => t.call(raffleCalls.claim, { token, params: { id } });
const drawInstant = (token: string, id: number, ClientSeed: string) => t.call(raffleCalls.forthwithRaffle, { token, params: { id }, body: { ClientSeed } });
const instantHistory = (token: string, id: number) => t.call(raffleCalls.forthwithRaffleResults, { token, params: { id } });

const raffleLedger = (userIds: number[]) =>
  t.app.db
    .select()
    .from(walletLedger)
    .where(and(eq(walletLedger.reason, 'raffle'), inArray(walletLedger.userId, userIds)));

/** How the public winner list shows a name: its first and last character. */
const masked = (name: string) => `${name[0]}***${name.at(-1)}`;

/** A registration raffle with `count` entrants (numbers 1..count, nicknames "Entrant 1"…), drawn with `publicValue`. */
async function drawnRaffle(prizes: Prize[], count: number, publicValue = '03 07 12 19 25 31 + 09') {
  const id = await create(registrationRaffle({ Prizes: prizes }));
  const entrants = await users(count, (i) => ({ nickname: `Entrant ${i + 1}` }));
  for (const [i, entrant] of entrants.entries()) expect((await enter(entrant.token, id)).body.data.Number).toBe(i + 1);
  expect((await drawRaffle(t.app.db, operator, id, publicValue)).drawn).toBe(true);
  const list = (await winners(id, 1, raffleRules.maxPageSize)).body.data.Items;
  /** The entrant who won (the first of) prize `prize`. */
  const winnerOf = (prize: number) => entrants[list.find((winner) => winner.Prize === prize)!.Number - 1];
  const losers = entrants.filter((_, i) => !list.some((winner) => winner.Number === i + 1));
  return { id, entrants, list, winnerOf, losers };
}

describe('raffle info', () => {
  it('is made from a definition file by the operators’ command, every text in every language, with its cover', async () => {
    const cover = path.join(folder, 'cover.png');
    await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#336699' } })
      .png()
      .toFile(cover);
    const made = await createByCommand({ ...registrationRaffle({ ClosesAt: at(3 * day), DrawAt: at(4 * day) }), Cover: 'cover.png' });
    expect(made.code).toBe(200);
    expect(made.data.refused).toBeNull();
    expect(made.data.raffle).toMatchObject({ kind: 'registration', title: 'Test raffle (en)', state: 'open', entrants: 0, publicValue: null });
    expect(made.data.raffle!.commitment).toMatch(/^[0-9a-f]{64}$/);

    const shown = await info(made.data.raffle!.id);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      Id: made.data.raffle!.id,
      Kind: 'registration',
      Title: everywhere('Test raffle'),
      State: 'open',
      RegistrationCount: 0,
      Proof: { Algorithm: 'beacon-draw-v1', Commitment: made.data.raffle!.commitment, PublicValue: null, Seed: null, Entrants: 0 },
      Instant: null,
      DrawnAt: null,
    });
    expect(shown.body.data.Proof!.PublicSource).toEqual(everywhere('The next lottery draw'));
    const coverPath = new URL(shown.body.data.Cover!, 'http://localhost').pathname;
    expect(coverPath).toMatch(/^\/api\/raffle-covers\/[0-9a-f]{20}\.webp$/);
    const image = await t.app.inject({ url: coverPath });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ width: 1200, height: 630 });

    // A text missing one language, or a cover that is not there, is refused whole, as a usage error that says what is wrong,
    // before the CLI sends anything.
    const { ru: _, ...title } = everywhere('Half translated');
    const count = async () => ((await admin('raffle', 'list')).data as unknown as { total: number }).total;
    const before = await count();
    await expect(createByCommand({ ...registrationRaffle(), Title: title })).rejects.toThrow(UsageError);
    await expect(createByCommand({ ...registrationRaffle(), Cover: 'missing.png' })).rejects.toThrow(/Cover: could not read .*missing\.png/);
    expect(await count()).toBe(before);
    const file = path.join(folder, 'untranslated.json');
    writeFileSync(file, JSON.stringify({ ...registrationRaffle(), Title: title }));
    expect(() => t.app.adminCommands.get('raffle create')!.readFiles!(['--file', file])).toThrow(`${file}: Title.ru: `);
    // Where the database is, a command never opens a path it is given: only the CLI reads `--file`, on the operator's side.
    expect(() => parseWords(operatorCommands, ['raffle', 'create', '--file', file])).toThrow(UsageError);
    // Words the command cannot take are refused before anything runs: JSON that is not, an id past the ids' range.
    expect(() => parseWords(operatorCommands, ['raffle', 'create', '--definition', '{"Kind": '])).toThrow(/^raffle create --definition: not JSON: /);
    expect(() => parseWords(operatorCommands, ['raffle', 'show', '2147483648'])).toThrow(UsageError);
  });

  it('answers the current registration raffle, the running instant one, and a raffle by id; an unknown one is a 404', async () => {
    const later = (await createByCommand(registrationRaffle({ ClosesAt: at(2 * day), DrawAt: at(2 * day) }))).data.raffle!.id;
    const sooner = (await createByCommand(registrationRaffle({ ClosesAt: at(day), DrawAt: at(day) }))).data.raffle!.id;
    const upcoming = (await createByCommand(registrationRaffle({ OpensAt: at(day), ClosesAt: at(2 * day), DrawAt: at(2 * day) }))).data.raffle!.id;
    const instant = (await createByCommand(instantRaffle())).data.raffle!.id;

    const current = await info('current');
    expect(current.headers['cache-control']).toBe('public, max-age=60');
    // The open raffle closing first.
    expect(current.body.data.Id).toBe(sooner);
    const forthwith = (await info('forthwith')).body.data;
    expect(forthwith).toMatchObject({
      Id: instant,
      Kind: 'instant',
      State: 'open',
      Proof: null,
      DrawAt: null,
      Instant: { Odds: 500_000, Stock: 100, PerUserLimit: 3 },
    });
    expect((await info(later)).body.data).toMatchObject({ Id: later, State: 'open' });
    expect((await info(upcoming)).body.data).toMatchObject({ Id: upcoming, State: 'upcoming' });

    const unknown = await info(999_999);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: ErrorCode.NotFound, message: 'There is no such raffle.', data: null });
    expect((await winners(999_999, 1, 10)).status).toBe(404);
  });

  it('pages the list, newest first', async () => {
    for (let days = 1; days <= 3; days++) await create(registrationRaffle({ OpensAt: at(-days * day) }));
    const all = await t.call(raffleCalls.list, { params: { a: 1, b: raffleRules.maxPageSize } });
    expect(all.headers['cache-control']).toBe('public, max-age=60');
    const { Items, Total } = all.body.data;
    expect(Total).toBeGreaterThanOrEqual(3);
    expect(Items).toHaveLength(Total);
    const opens = Items.map((item) => Date.parse(item.OpensAt));
    expect(opens).toEqual([...opens].sort((a, b) => b - a));

    const pages = [];
    for (let page = 1; page <= Math.ceil(Total / 2); page++) {
      const answer = (await t.call(raffleCalls.list, { params: { a: page, b: 2 } })).body.data;
      expect(answer).toMatchObject({ Total, Page: page });
      pages.push(...answer.Items);
    }
    expect(pages.map((item) => item.Id)).toEqual(Items.map((item) => item.Id));
    expect((await t.call(raffleCalls.list, { params: { a: 1000, b: 2 } })).body.data).toEqual({ Items: [], Total, Page: 1000 });
    // Past the largest page size is a bad request, not a bigger page.
    expect((await t.call(raffleCalls.list, { params: { a: 1, b: raffleRules.maxPageSize + 1 } })).status).toBe(400);
  });
});

describe('registering', () => {
  it('gives numbers 1, 2, 3 in order, the same number again, and each user sees only their own', async () => {
    const id = await create(registrationRaffle());
    const [a, b, c, outsider] = await users(4);
    const first = await enter(a.token, id);
    expect(first.body).toEqual({ code: 200, message: 'You are registered. Your participation number is 1.', data: { Number: 1, Count: 1 } });
    expect((await enter(b.token, id)).body.data).toEqual({ Number: 2, Count: 2 });
    expect((await enter(c.token, id)).body.data).toEqual({ Number: 3, Count: 3 });
    expect((await enter(a.token, id)).body.data).toEqual({ Number: 1, Count: 3 });

    for (const [user, number] of [
      [a, 1],
      [b, 2],
      [c, 3],
      [outsider, null],
    ] as const) {
      const registered = await t.call(raffleCalls.isRegistration, { token: user.token, params: { id } });
      expect(registered.body.data).toBe(number !== null);
      expect(registered.headers['cache-control']).toBe('private, max-age=360');
      // The answer is the caller's own: a browser must not hand it to the next login in it.
      expect(registered.headers.vary).toMatch(/\bAuthorization\b/);
      const own = await t.call(raffleCalls.participationNumber, { token: user.token, params: { id } });
      expect(own.body.data).toBe(number);
      expect(own.headers['cache-control']).toBe('private, max-age=360');
      expect(own.headers.vary).toMatch(/\bAuthorization\b/);
      expect((await ownResult(user.token, id)).body.data).toEqual({ Number: number, Prize: null, ClaimBy: null, ClaimedAt: null });
    }
    expect((await t.call(raffleCalls.registrationCount, { token: outsider.token, params: { id } })).body.data).toBe(3);
    expect((await info(id)).body.data).toMatchObject({ RegistrationCount: 3, Proof: { Entrants: 3 } });
  });

  it('refuses a raffle that is not open (upcoming, closed, drawn) with 4042, and any but a registration raffle as unknown', async () => {
    const upcoming = await create(registrationRaffle({ OpensAt: at(day), ClosesAt: at(2 * day), DrawAt: at(2 * day) }));
    const closed = await create(registrationRaffle({ OpensAt: at(-2 * day), ClosesAt: at(-day), DrawAt: at(day) }));
    const drawn = await create(registrationRaffle());
    expect((await drawRaffle(t.app.db, operator, drawn, 'drawn early')).drawn).toBe(true);
    const instant = await create(instantRaffle());
    const [user] = await users(1);
    for (const [id, state] of [
      [upcoming, 'upcoming'],
      [closed, 'closed'],
      [drawn, 'drawn'],
    ] as const) {
      expect((await info(id)).body.data.State).toBe(state);
      const refused = await enter(user.token, id);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ code: ErrorCode.RaffleNotOpen, message: 'This raffle is not open right now.', data: null });
      expect((await t.call(raffleCalls.registrationCount, { token: user.token, params: { id } })).body.data).toBe(0);
    }
    expect((await enter(user.token, instant)).status).toBe(404);
    expect((await enter(user.token, 999_999)).body.code).toBe(ErrorCode.NotFound);
    expect(await t.app.db.select().from(raffleEntries).where(eq(raffleEntries.userId, user.userId))).toEqual([]);
  });

  it('refuses an account younger than the raffle asks for with 4043, naming the days', async () => {
    const id = await create(registrationRaffle({ MinAccountAgeDays: 30 }));
    expect((await info(id)).body.data.MinAccountAgeDays).toBe(30);
    const [young] = await users(1, () => ({ createdAt: new Date(Date.now() - 29 * day) }));
    const [old] = await users(1, () => ({ createdAt: new Date(Date.now() - 31 * day) }));
    const refused = await enter(young.token, id);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: ErrorCode.RaffleIneligible, message: 'Only accounts at least 30 days old can take part in this raffle.', data: null });
    expect((await enter(old.token, id)).body.data).toEqual({ Number: 1, Count: 1 });
    expect((await t.call(raffleCalls.registrationCount, { token: young.token, params: { id } })).body.data).toBe(1);
  });
});

describe('drawing', () => {
  const prizes = [
    walletPrize('CN¥50', 1, 5000),
    { Name: everywhere('A month of idling'), Quantity: 2, Grant: { Kind: 'membership', Days: 30 } },
    { Name: everywhere('A game key'), Quantity: 1, Grant: null },
  ] satisfies Prize[];

  it('is drawn by the operators’ command with the public value, and anyone can redo it from what it publishes', async () => {
    const id = (await createByCommand(registrationRaffle({ Prizes: prizes }))).data.raffle!.id;
    const commitment = (await info(id)).body.data.Proof!.Commitment;
    const entrants = await users(9, (i) => ({ nickname: `Entrant ${String.fromCharCode(65 + i)}` }));
    for (const entrant of entrants) await enter(entrant.token, id);
    const [outsider] = await users(1);

    // No value while people can still register; no draw without one.
    const early = await admin('raffle', 'value', String(id), '01 02 03');
    expect(early.data.refused).toBe('A public value is entered for a registration raffle once its registration has closed; this one is open.');
    expect((await info(id)).body.data.Proof!.PublicValue).toBeNull();
    const valueless = await admin('raffle', 'draw', String(id));
    expect(valueless.data).toMatchObject({
      refused: 'There is no public value to draw with yet. Enter it once it is published.',
      raffle: { state: 'open', drawnAt: null },
      winners: [],
    });
    expect((await info(id)).body.data.State).toBe('open');

    const drawn = await admin('raffle', 'draw', String(id), '--public-value', '03 07 12 19 25 31 + 09');
    expect(drawn.code).toBe(200);
    expect(drawn.data).toMatchObject({ refused: null, raffle: { state: 'drawn', publicValue: '03 07 12 19 25 31 + 09', entrants: 9 } });
    expect(drawn.data.winners).toHaveLength(4);

    const shown = (await info(id)).body.data;
    expect(shown).toMatchObject({
      State: 'drawn',
      RegistrationCount: 9,
      Proof: { Commitment: commitment, PublicValue: '03 07 12 19 25 31 + 09', Entrants: 9 },
    });
    expect(Date.parse(shown.ClosesAt)).toBeLessThanOrEqual(Date.parse(shown.DrawnAt!));
    const seed = shown.Proof!.Seed!;
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(await commitmentOf(seed)).toBe(commitment);

    // The verify page's check: the published seed, value and entrants give exactly the published winners.
    const all = await winners(id, 1, raffleRules.maxPageSize);
    expect(all.headers['cache-control']).toBe('public, max-age=60');
    const redone = await drawWinners({
      seed,
      publicValue: shown.Proof!.PublicValue!,
      entrants: shown.Proof!.Entrants,
      quantities: shown.Prizes.map((prize) => prize.Quantity),
    });
    expect(all.body.data.Items.map((winner) => ({ number: winner.Number, prize: winner.Prize }))).toEqual(redone);
    expect(all.body.data.Items.map((winner) => winner.Prize)).toEqual([0, 1, 1, 2]);
    expect(drawn.data.winners.map((winner) => [winner.number, winner.userId])).toEqual(
      redone.map((winner) => [winner.number, entrants[winner.number - 1].userId]),
    );
    for (const winner of all.body.data.Items) {
      const nickname = `Entrant ${String.fromCharCode(64 + winner.Number)}`;
      expect(winner.Name).toBe(masked(nickname));
      expect(winner.Name).not.toContain(nickname);
    }
    expect(JSON.stringify(all.body)).not.toContain('UserId');

    // In pages.
    const paged = [];
    for (const page of [1, 2]) {
      const answer = (await winners(id, page, 3)).body.data;
      expect(answer).toMatchObject({ Total: 4, Page: page });
      paged.push(...answer.Items);
    }
    expect(paged).toEqual(all.body.data.Items);
    expect((await winners(id, 3, 3)).body.data).toEqual({ Items: [], Total: 4, Page: 3 });

    // Each user's own result.
    const claimBy = new Date(Date.parse(shown.DrawnAt!) + raffleRules.claimWindowMs).toISOString();
    for (const [place, winner] of all.body.data.Items.entries()) {
      const own = await ownResult(entrants[winner.Number - 1].token, id);
      expect(own.headers['cache-control']).toBe('private, max-age=60');
      expect(own.headers.vary).toMatch(/\bAuthorization\b/);
      expect(own.body.data).toEqual({ Number: winner.Number, Prize: redone[place].prize, ClaimBy: claimBy, ClaimedAt: null });
    }
    const loser = entrants.find((_, i) => !redone.some((winner) => winner.number === i + 1))!;
    expect((await ownResult(loser.token, id)).body.data).toEqual({ Number: entrants.indexOf(loser) + 1, Prize: null, ClaimBy: null, ClaimedAt: null });
    expect((await ownResult(outsider.token, id)).body.data).toEqual({ Number: null, Prize: null, ClaimBy: null, ClaimedAt: null });

    // Drawn once: a second draw, a new value or a late registration changes nothing.
    expect((await admin('raffle', 'draw', String(id), '--public-value', 'another value')).data.refused).toBe('This raffle has been drawn already.');
    expect((await admin('raffle', 'value', String(id), 'another value')).data.refused).toBe(
      'A public value is entered for a registration raffle once its registration has closed; this one is drawn.',
    );
    expect((await enter(outsider.token, id)).body.code).toBe(ErrorCode.RaffleNotOpen);
    expect((await winners(id, 1, raffleRules.maxPageSize)).body.data).toEqual(all.body.data);
    expect((await admin('raffle', 'show', String(id))).data.winners).toEqual(drawn.data.winners);
  });

  it('draws on schedule once a public value is entered after registration closed, and waits without one', async () => {
    const id = await create(registrationRaffle());
    const waiting = await create(registrationRaffle());
    const entrants = await users(6);
    for (const entrant of entrants) await enter(entrant.token, id);
    await t.app.db
      .update(raffles)
      .set({ closesAt: new Date(Date.now() - 2 * minute), drawAt: new Date(Date.now() - minute) })
      .where(inArray(raffles.id, [id, waiting]));
    expect((await dueDraws(t.app.db)).map((row) => row.id)).not.toContain(id);
    expect((await waitingForValue(t.app.db)).map((row) => row.id)).toEqual(expect.arrayContaining([id, waiting]));

    const entered = await admin('raffle', 'value', String(id), '  12 13 14 + 15  ');
    expect(entered.data).toMatchObject({ refused: null, raffle: { state: 'closed', publicValue: '12 13 14 + 15' } });
    // Public at once; the seed stays secret until the draw.
    expect((await info(id)).body.data.Proof).toMatchObject({ PublicValue: '12 13 14 + 15', Seed: null });

    const due = (await dueDraws(t.app.db)).map((row) => row.id);
    expect(due).toContain(id);
    expect(due).not.toContain(waiting);
    const outcomes = [];
    for (const raffle of due) outcomes.push(await drawRaffle(t.app.db, operator, raffle));
    expect(outcomes.find((outcome) => outcome.raffle?.id === id)).toMatchObject({ drawn: true, raffle: { publicValue: '12 13 14 + 15' } });
    expect((await dueDraws(t.app.db)).map((row) => row.id)).not.toContain(id);
    expect(await drawRaffle(t.app.db, operator, waiting)).toMatchObject({ drawn: false, refused: 'no public value' });
    expect((await info(waiting)).body.data.State).toBe('closed');

    const proof = (await info(id)).body.data.Proof!;
    const redone = await drawWinners({ seed: proof.Seed!, publicValue: '12 13 14 + 15', entrants: 6, quantities: [1, 3] });
    expect((await winners(id, 1, 10)).body.data.Items.map((winner) => ({ number: winner.Number, prize: winner.Prize }))).toEqual(redone);
  });

  it('lets a winner claim once, within the window, with the grant; nobody else', async () => {
    const { id, winnerOf, losers } = await drawnRaffle(prizes, 8);
    const [outsider] = await users(1);
    const money = winnerOf(0);
    // Deleting the account would lose the prize while it waits to be claimed (the deletion confirmation says so).
    const lossesOf = async (token: string) => (await t.call(accountCalls.deletionLosses, { token })).body.data.UnclaimedPrizes;
    expect(await lossesOf(money.token)).toBe(1);

    const claimed = await claim(money.token, id);
    expect(await lossesOf(money.token)).toBe(0);
    expect(claimed.body).toMatchObject({ code: 200, message: 'Prize claimed. Enjoy!', data: { Prize: 0, ClaimedAt: expect.any(String) } });
    expect((await ownResult(money.token, id)).body.data.ClaimedAt).toBe(claimed.body.data.ClaimedAt);
    const wallet = (await t.call(commerceCalls.wallet, { token: money.token, params: { page: 1 } })).body.data;
    expect(wallet.Balance).toBe(5000);
    expect(wallet.Items.map((entry) => [entry.Reason, entry.Delta, entry.BalanceAfter])).toEqual([['raffle', 5000, 5000]]);

    const again = await claim(money.token, id);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: ErrorCode.PrizeClaimed, message: 'You have already claimed this prize.', data: null });

    const idler = winnerOf(1);
    expect((await claim(idler.token, id)).body.code).toBe(200);
    const until = (await t.call(commerceCalls.summary, { token: idler.token })).body.data.MembershipUntil;
    expect(Date.parse(until!)).toBeGreaterThan(Date.now() + 29.9 * day);

    // A prize without a grant is only marked claimed: an operator delivers it.
    const key = winnerOf(2);
    expect((await claim(key.token, id)).body.data.Prize).toBe(2);
    expect((await admin('raffle', 'show', String(id))).data.winners.find((winner) => winner.userId === key.userId)!.claimedAt).not.toBeNull();

    for (const nobody of [losers[0], outsider]) {
      const refused = await claim(nobody.token, id);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: ErrorCode.PrizeUnclaimable, data: null });
      expect(refused.body.message).toContain('you did not win');
    }
    expect(await raffleLedger([...losers, outsider].map((user) => user.userId))).toEqual([]);
    expect(await raffleLedger([money.userId])).toHaveLength(1);
  });

  it('refuses a claim once the window has passed', async () => {
    const { id, winnerOf } = await drawnRaffle(prizes, 4);
    await t.app.db
      .update(raffles)
      .set({ drawnAt: sql`now() - make_interval(secs => ${raffleRules.claimWindowMs / 1000 + 60})` })
      .where(eq(raffles.id, id));
    const winner = winnerOf(0);
    expect(Date.parse((await ownResult(winner.token, id)).body.data.ClaimBy!)).toBeLessThan(Date.now());
    const refused = await claim(winner.token, id);
    expect(refused.body).toEqual({
      code: ErrorCode.PrizeUnclaimable,
      message: 'There is no prize to claim: you did not win, or the claim period of 14 days has passed.',
      data: null,
    });
    expect((await ownResult(winner.token, id)).body.data.ClaimedAt).toBeNull();
    expect(await raffleLedger([winner.userId])).toEqual([]);
  });
});

describe('instant raffle', () => {
  it('draws up to the limit, each roll checkable once the seed is revealed, each win credited', async () => {
    const id = await create(instantRaffle({ PerUserLimit: 4 }));
    const [user] = await users(1);
    const before = await instantHistory(user.token, id);
    expect(before.body.data).toEqual({ SeedHash: expect.stringMatching(/^[0-9a-f]{64}$/), NextNonce: 0, Draws: [] });
    const seedHash = before.body.data.SeedHash;

    let stock = 100;
    for (let nonce = 0; nonce < 4; nonce++) {
      const answer = await drawInstant(user.token, id, `my-seed_${nonce}`);
      expect(answer.body.code).toBe(200);
      const { Draw, Left, Stock } = answer.body.data;
      expect(Draw).toMatchObject({ Nonce: nonce, ClientSeed: `my-seed_${nonce}`, SeedHash: seedHash, Seed: null, Won: Draw.Roll < 500_000, SoldOut: false });
      expect(Left).toBe(3 - nonce);
      if (Draw.Won) stock--;
      expect(Stock).toBe(stock);
    }
    const over = await drawInstant(user.token, id, 'one-more');
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ code: ErrorCode.RaffleDrawLimit, message: 'You have used all your draws in this raffle.', data: null });
    expect((await info(id)).body.data.Instant!.Stock).toBe(stock);

    const history = (await instantHistory(user.token, id)).body.data;
    expect(history).toMatchObject({ SeedHash: seedHash, NextNonce: 4 });
    expect(history.Draws.map((draw) => [draw.Nonce, draw.SeedHash, draw.Seed])).toEqual([3, 2, 1, 0].map((nonce) => [nonce, seedHash, null]));

    // Rotating reveals the seed the draws used and starts a new one.
    const rotated = (await t.call(raffleCalls.rotateSeed, { token: user.token, params: { id } })).body.data;
    expect(rotated.SeedHash).not.toBe(seedHash);
    expect(rotated.NextNonce).toBe(0);
    expect(rotated.Draws).toHaveLength(4);
    for (const draw of rotated.Draws) {
      expect(draw.Seed).toMatch(/^[0-9a-f]{64}$/);
      expect(await commitmentOf(draw.Seed!)).toBe(draw.SeedHash);
      expect(draw.SeedHash).toBe(seedHash);
      expect(await instantRoll(draw.Seed!, draw.ClientSeed, draw.Nonce)).toBe(draw.Roll);
    }
    expect((await instantHistory(user.token, id)).body.data).toEqual(rotated);
    // The limit counts draws, not seeds.
    expect((await drawInstant(user.token, id, 'after-rotation')).body.code).toBe(ErrorCode.RaffleDrawLimit);

    const wins = rotated.Draws.filter((draw) => draw.Won).length;
    const ledger = await raffleLedger([user.userId]);
    expect(ledger.map((row) => row.delta)).toEqual(Array<number>(wins).fill(100));
    console.log(`instant draws: rolls ${rotated.Draws.map((draw) => draw.Roll).join(', ')} against odds 500,000: ${wins} won`);
  });

  it('grants the prize of a winning draw at once, and closes when the stock is gone', async () => {
    const id = await create(instantRaffle({ Prizes: [walletPrize('CN¥8', 1, 800)], Odds: 1_000_000, PerUserLimit: 2 }));
    const [winner, late] = await users(2);
    const won = (await drawInstant(winner.token, id, 'lucky')).body.data;
    expect(won).toMatchObject({ Draw: { Won: true, SoldOut: false }, Left: 1, Stock: 0 });
    const wallet = (await t.call(commerceCalls.wallet, { token: winner.token, params: { page: 1 } })).body.data;
    expect(wallet.Items.map((entry) => [entry.Reason, entry.Delta])).toEqual([['raffle', 800]]);
    expect((await info(id)).body.data).toMatchObject({ State: 'closed', Instant: { Stock: 0 } });
    expect((await drawInstant(late.token, id, 'too-late')).body.code).toBe(ErrorCode.RaffleNotOpen);
    expect((await drawInstant(winner.token, id, 'again')).body.code).toBe(ErrorCode.RaffleNotOpen);
  });

  it('refuses draws on an upcoming or ended raffle, and on anything but an instant raffle', async () => {
    const upcoming = await create(instantRaffle({ OpensAt: at(day), ClosesAt: at(2 * day) }));
    const ended = await create(instantRaffle({ OpensAt: at(-2 * day), ClosesAt: at(-day) }));
    const registration = await create(registrationRaffle());
    const [user] = await users(1);
    for (const id of [upcoming, ended]) expect((await drawInstant(user.token, id, 'seed')).body.code).toBe(ErrorCode.RaffleNotOpen);
    expect((await drawInstant(user.token, registration, 'seed')).status).toBe(404);
    expect((await instantHistory(user.token, registration)).status).toBe(404);
    expect((await t.call(raffleCalls.rotateSeed, { token: user.token, params: { id: registration } })).status).toBe(404);
    expect((await drawInstant(user.token, upcoming, 'not allowed!')).status).toBe(400);
  });
});

describe('each user sees only their own part', () => {
  it('numbers, results and instant draws', async () => {
    const { id, list, winnerOf, losers } = await drawnRaffle([walletPrize('CN¥1', 1, 100)], 2);
    const winner = winnerOf(0);
    const [loser] = losers;
    expect((await ownResult(winner.token, id)).body.data).toMatchObject({ Number: list[0].Number, Prize: 0 });
    expect((await ownResult(loser.token, id)).body.data).toMatchObject({ Number: 3 - list[0].Number, Prize: null });
    expect((await t.call(raffleCalls.participationNumber, { token: loser.token, params: { id } })).body.data).toBe(3 - list[0].Number);
    // The loser cannot claim the winner's prize; the winner still can.
    expect((await claim(loser.token, id)).body.code).toBe(ErrorCode.PrizeUnclaimable);
    expect((await claim(winner.token, id)).body.code).toBe(200);

    const instant = await create(instantRaffle());
    const [a, b] = await users(2);
    await drawInstant(a.token, instant, 'a-seed');
    await drawInstant(a.token, instant, 'a-seed');
    const ofA = (await instantHistory(a.token, instant)).body.data;
    const ofB = (await instantHistory(b.token, instant)).body.data;
    expect(ofA.Draws).toHaveLength(2);
    expect(ofB).toEqual({ SeedHash: expect.any(String), NextNonce: 0, Draws: [] });
    expect(ofB.SeedHash).not.toBe(ofA.SeedHash);
    // B revealing their seed reveals nothing of A's.
    const rotatedB = (await t.call(raffleCalls.rotateSeed, { token: b.token, params: { id: instant } })).body.data;
    expect(rotatedB.Draws).toEqual([]);
    expect((await instantHistory(a.token, instant)).body.data).toEqual(ofA);
    expect(ofA.Draws.every((draw) => draw.Seed === null)).toBe(true);
    expect((await drawInstant(b.token, instant, 'b-seed')).body.data.Draw.Nonce).toBe(0);
  });
});

describe('auth', () => {
  it('refuses missing, made-up, expired and revoked tokens on every call that needs a login', async () => {
    const id = await create(instantRaffle());
    const required = Object.entries(raffleCalls).filter(([, route]) => route.auth === 'required');
    expect(required.map(([name]) => name).sort()).toEqual(
      [
        'claim',
        'forthwithRaffle',
        'forthwithRaffleResults',
        'isRegistration',
        'participationNumber',
        'registration',
        'registrationCount',
        'result',
        'rotateSeed',
      ].sort(),
    );
    for (const [, route] of required) {
      await expectBadTokensRefused(t, route, { params: { id }, body: route === raffleCalls.forthwithRaffle ? { ClientSeed: 'seed' } : undefined }, newUser);
    }
    // The public calls need none.
    for (const answer of [await info(id), await t.call(raffleCalls.list, { params: { a: 1, b: 1 } }), await winners(id, 1, 1)]) expect(answer.status).toBe(200);
  });
});

/** Codes of the answers and how many of each, for the log. */
const tally = (answers: Array<{ body: { code: number } }>) =>
  answers.reduce<Record<number, number>>((counts, answer) => ({ ...counts, [answer.body.code]: (counts[answer.body.code] ?? 0) + 1 }), {});
const since = (start: number) => `${Math.round(performance.now() - start)} ms`;

describe('races', () => {
  it('gives 1,000 users registering at once the numbers 1..1,000, each once', async () => {
    const id = await create(registrationRaffle());
    const entrants = await users(1000);
    const start = performance.now();
    const answers = await Promise.all(entrants.map((entrant) => enter(entrant.token, id)));
    const took = since(start);
    expect(tally(answers)).toEqual({ 200: 1000 });
    const numbers = answers.map((answer) => answer.body.data.Number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    const count = (await t.call(raffleCalls.registrationCount, { token: entrants[0].token, params: { id } })).body.data;
    expect(count).toBe(1000);
    expect((await info(id)).body.data.RegistrationCount).toBe(1000);

    const rows = await t.app.db.select().from(raffleEntries).where(eq(raffleEntries.raffleId, id));
    expect(rows).toHaveLength(1000);
    const numberOf = new Map(rows.map((row) => [row.userId, row.number]));
    expect(numberOf.size).toBe(1000);
    for (const [i, entrant] of entrants.entries()) expect(numberOf.get(entrant.userId)).toBe(answers[i].body.data.Number);
    console.log(
      `registration race: 1,000 users at once: ${JSON.stringify(tally(answers))} by code, numbers ${numbers[0]}..${numbers.at(-1)} (${new Set(numbers).size} distinct), count ${count}, ${rows.length} entries, in ${took}`,
    );
  }, 60_000);

  it('gives one user registering 50 times at once one number, and 20 users 10 times each one number apiece', async () => {
    const id = await create(registrationRaffle());
    const [user] = await users(1);
    const answers = await Promise.all(Array.from({ length: 50 }, () => enter(user.token, id)));
    expect(tally(answers)).toEqual({ 200: 50 });
    expect(new Set(answers.map((answer) => answer.body.data.Number))).toEqual(new Set([1]));
    const count = (await t.call(raffleCalls.registrationCount, { token: user.token, params: { id } })).body.data;
    expect(count).toBe(1);
    expect(await t.app.db.select().from(raffleEntries).where(eq(raffleEntries.raffleId, id))).toHaveLength(1);
    console.log(
      `same user 50 times at once: ${JSON.stringify(tally(answers))} by code, numbers ${[...new Set(answers.map((answer) => answer.body.data.Number))].join(', ')}, count ${count}`,
    );

    const mixed = await create(registrationRaffle());
    const many = await users(20);
    const repeated = await Promise.all(
      many.flatMap((entrant) => Array.from({ length: 10 }, () => enter(entrant.token, mixed).then((answer) => ({ entrant, answer })))),
    );
    expect(repeated.every(({ answer }) => answer.body.code === 200)).toBe(true);
    const numbers = new Map<number, Set<number>>();
    for (const { entrant, answer } of repeated) numbers.set(entrant.userId, (numbers.get(entrant.userId) ?? new Set()).add(answer.body.data.Number));
    expect([...numbers.values()].every((held) => held.size === 1)).toBe(true);
    expect([...numbers.values()].map((held) => [...held][0]).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await info(mixed)).body.data.RegistrationCount).toBe(20);
  }, 30_000);

  it('gives exactly 10 prizes to 500 users drawing at once for a stock of 10', async () => {
    const id = await create(instantRaffle({ Prizes: [walletPrize('CN¥1', 10, 100)], Odds: 1_000_000, PerUserLimit: 1 }));
    const players = await users(500);
    const start = performance.now();
    const answers = await Promise.all(players.map((player, i) => drawInstant(player.token, id, `player-${i}`)));
    const took = since(start);
    const won = answers.filter((answer) => answer.body.code === 200 && answer.body.data.Draw.Won);
    const soldOut = answers.filter((answer) => answer.body.code === 200 && answer.body.data.Draw.SoldOut);
    const closed = answers.filter((answer) => answer.body.code === ErrorCode.RaffleNotOpen);
    expect(won).toHaveLength(10);
    expect(soldOut.length + closed.length).toBe(490);
    expect(soldOut.every((answer) => !answer.body.data.Draw.Won && answer.body.data.Stock === 0)).toBe(true);

    const shown = (await info(id)).body.data;
    expect(shown).toMatchObject({ State: 'closed', Instant: { Stock: 0 } });
    const ledger = await raffleLedger(players.map((player) => player.userId));
    expect(ledger).toHaveLength(10);
    expect(ledger.every((row) => row.delta === 100 && row.balanceAfter === 100)).toBe(true);
    const winners = new Set(players.filter((_, i) => answers[i].body.code === 200 && answers[i].body.data.Draw.Won).map((player) => player.userId));
    expect(new Set(ledger.map((row) => row.userId))).toEqual(winners);
    const [draws] = rowsOf(
      await t.app.db.execute(sql`select count(*)::int as n, count(*) filter (where won)::int as won from instant_draws where raffle_id = ${id}`),
    );
    expect(draws).toEqual({ n: 10 + soldOut.length, won: 10 });
    console.log(
      `instant race: 500 users at once for a stock of 10: ${won.length} won, ${soldOut.length} sold out, ${closed.length} told it closed (${JSON.stringify(tally(answers))} by code); stock ${shown.Instant!.Stock}, ${ledger.length} 'raffle' ledger rows, in ${took}`,
    );
  }, 60_000);

  it('keeps one user drawing 30 times at once within the limit, on nonces 0, 1, 2', async () => {
    const id = await create(instantRaffle({ Odds: 1_000_000, PerUserLimit: 3 }));
    const [user] = await users(1);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => drawInstant(user.token, id, `burst-${i}`)));
    expect(tally(answers)).toEqual({ 200: 3, [ErrorCode.RaffleDrawLimit]: 27 });
    const made = answers.filter((answer) => answer.body.code === 200).map((answer) => answer.body.data);
    expect(made.map((draw) => draw.Draw.Nonce).sort()).toEqual([0, 1, 2]);
    expect(made.map((draw) => draw.Left).sort()).toEqual([0, 1, 2]);
    expect((await info(id)).body.data.Instant!.Stock).toBe(97);
    expect(await raffleLedger([user.userId])).toHaveLength(3);
    console.log(`one user drawing 30 times at once (limit 3): ${JSON.stringify(tally(answers))} by code`);
  });

  it('draws a raffle once when the draw is started twice at once, by the schedule’s function and by two operators', async () => {
    const prizes = [walletPrize('CN¥50', 2, 5000), walletPrize('CN¥5', 5, 500)];
    const ids = await Promise.all(Array.from({ length: 6 }, () => create(registrationRaffle({ Prizes: prizes }))));
    const entrants = await users(40);
    await Promise.all(ids.flatMap((id) => entrants.map((entrant) => enter(entrant.token, id))));

    const winnerRows = async (id: number) =>
      t.app.db
        .select()
        .from(raffleEntries)
        .where(and(eq(raffleEntries.raffleId, id), isNotNull(raffleEntries.drawOrder)));
    const byFunction = ids.slice(0, 3);
    const byCommand = ids.slice(3);
    const [outcomes, commands] = await Promise.all([
      Promise.all(byFunction.flatMap((id) => [drawRaffle(t.app.db, operator, id, `first ${id}`), drawRaffle(t.app.db, operator, id, `second ${id}`)])),
      Promise.all(
        byCommand.flatMap((id) => [
          admin('raffle', 'draw', String(id), '--public-value', `first ${id}`),
          admin('raffle', 'draw', String(id), '--public-value', `second ${id}`),
        ]),
      ),
    ]);
    const seen: string[] = [];
    /** The public value of the one draw that happened, by raffle. */
    const drewWith = new Map<number, string>();
    for (const [i, pair] of byFunction.map((_, i) => outcomes.slice(2 * i, 2 * i + 2)).entries()) {
      const drawn = pair.filter((outcome) => outcome.drawn);
      expect(drawn).toHaveLength(1);
      expect(pair.filter((outcome) => !outcome.drawn && outcome.refused === 'drawn already')).toHaveLength(1);
      drewWith.set(byFunction[i], drawn[0].raffle.publicValue!);
      seen.push(pair.map((outcome) => (outcome.drawn ? 'drawn' : outcome.refused)).join(' + '));
    }
    for (const [i, pair] of byCommand.map((_, i) => commands.slice(2 * i, 2 * i + 2).map((answer) => answer.data)).entries()) {
      const drawn = pair.filter((answer) => answer.refused === null);
      expect(drawn).toHaveLength(1);
      expect(pair.filter((answer) => answer.refused === 'This raffle has been drawn already.')).toHaveLength(1);
      // Both answers show the one draw's winners.
      expect(pair[0].winners).toEqual(pair[1].winners);
      drewWith.set(byCommand[i], drawn[0].raffle!.publicValue!);
      seen.push(pair.map((answer) => answer.refused ?? 'drawn').join(' + '));
    }
    for (const id of ids) {
      expect(await winnerRows(id)).toHaveLength(7);
      const proof = (await info(id)).body.data.Proof!;
      expect(proof.PublicValue).toBe(drewWith.get(id));
      const redone = await drawWinners({ seed: proof.Seed!, publicValue: proof.PublicValue!, entrants: 40, quantities: [2, 5] });
      const list = (await winners(id, 1, 100)).body.data;
      expect(list.Total).toBe(7);
      expect(list.Items.map((winner) => ({ number: winner.Number, prize: winner.Prize }))).toEqual(redone);
    }
    console.log(`double draws: ${seen.join('; ')}; 7 winner rows each`);
  }, 30_000);

  it('lets a winner claiming 20 times at once take the prize once', async () => {
    const { id, winnerOf } = await drawnRaffle([walletPrize('CN¥20', 1, 2000)], 3);
    const winner = winnerOf(0);
    const answers = await Promise.all(Array.from({ length: 20 }, () => claim(winner.token, id)));
    expect(tally(answers)).toEqual({ 200: 1, [ErrorCode.PrizeClaimed]: 19 });
    const ledger = await raffleLedger([winner.userId]);
    expect(ledger.map((row) => row.delta)).toEqual([2000]);
    console.log(`one winner claiming 20 times at once: ${JSON.stringify(tally(answers))} by code, ${ledger.length} ledger row`);
  });
});
