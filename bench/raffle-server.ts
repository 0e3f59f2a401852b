/**
 * The server side of the raffle benchmark (`bench/raffle.ts` forks this
 * file): the real app, configured from the environment the benchmark passes,
 * with BENCH_USERS accounts, each logged in on one device (`accounts.ts`: a
 * thousand password logins would cost about 50 s of scrypt on two cores,
 * which the benchmark does not measure). It listens on 127.0.0.1 on
 * a free port and sends `{ port, users: [{ id, token }] }` (each user's id and
 * access token) to the parent over the IPC channel. Then it answers the
 * parent's requests:
 *   { type: 'raffle' }              → a new registration raffle, open from a minute ago for a day, made with
 *                                     `createRaffle` from a checked definition as `admin raffle create` makes
 *                                     one: { raffleId }
 *   { type: 'entries', raffleIds }  → each raffle's running count and its entries:
 *                                     { raffles: [{ id, entrants, entries: [[userId, number], …] }] }
 *   { type: 'cpu' }                 → the CPU time this process has used (process.cpuUsage())
 */
import type { AddressInfo } from 'node:net';
import { asc, inArray } from 'drizzle-orm';
import { localeCodes } from '#contract/locales.ts';
import { serverActor } from '../server/db/audit.ts';
import type { LocalizedText } from '#contract/raffle.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { raffleEntries, raffles } from '../server/db/schema.ts';
import { createRaffle } from '../server/modules/raffle/definition.ts';
import { RaffleDefinition } from '#contract/raffle.ts';
import { loggedInUsers } from './accounts.ts';
import { answerParent, closeWithParent } from './child-server.ts';

if (!process.send) throw new Error('bench/raffle-server.ts is started by bench/raffle.ts (it needs the IPC channel)');
const count = Number(process.env.BENCH_USERS);
if (!(Number.isInteger(count) && count > 0 && count < 10_000_000)) throw new Error('BENCH_USERS says how many logged-in users the benchmark needs');

const app = await buildApp(loadConfig({ ...process.env }));
const loggedIn = await loggedInUsers(app.db, count);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

const everyLocale = (text: string) => Object.fromEntries(localeCodes.map((locale) => [locale, text])) as LocalizedText;
const day = 86_400_000;

/** A registration raffle open now, as an operator's definition file would describe it. */
function definition(): RaffleDefinition {
  const now = Date.now();
  return RaffleDefinition.parse({
    Kind: 'registration',
    Title: everyLocale('Benchmark raffle'),
    Description: everyLocale('Made by bench/raffle.ts: every benchmark user registers once.'),
    Prizes: [{ Name: everyLocale('Nothing'), Quantity: 1, Grant: null }],
    OpensAt: new Date(now - 60_000).toISOString(),
    ClosesAt: new Date(now + day).toISOString(),
    DrawAt: new Date(now + day).toISOString(),
    PublicSource: everyLocale('None: the benchmark never draws it'),
  });
}

type Request = { type: 'raffle' } | { type: 'entries'; raffleIds: number[] } | { type: 'cpu' };

answerParent<Request>(async (request) => {
  if (request.type === 'cpu') return process.cpuUsage();
  if (request.type === 'raffle') return { raffleId: (await createRaffle(app.db, serverActor('benchmark'), definition(), null)).id };
  const rows = await app.db.select({ id: raffles.id, entrants: raffles.entrants }).from(raffles).where(inArray(raffles.id, request.raffleIds));
  const entries = await app.db
    .select({ raffleId: raffleEntries.raffleId, userId: raffleEntries.userId, number: raffleEntries.number })
    .from(raffleEntries)
    .where(inArray(raffleEntries.raffleId, request.raffleIds))
    .orderBy(asc(raffleEntries.raffleId), asc(raffleEntries.number));
  const byRaffle = new Map(rows.map((row) => [row.id, { ...row, entries: [] as Array<[number | null, number]> }]));
  for (const entry of entries) byRaffle.get(entry.raffleId)?.entries.push([entry.userId, entry.number]);
  return { raffles: [...byRaffle.values()] };
});

closeWithParent(app);

process.send({ port, users: loggedIn });
