/**
 * The console's raffles area: the raffles by kind and state, sorted and a page at a time (`raffle list`), one with its
 * winners, their messages and claims (`raffle show`) and its entries (`raffle
 * entries`), and what an operator does to one:
 * open it early, close it, enter the public value, draw it, send a winner the message of their win again (`raffle
 * open|close|value|draw|resend`); and a new raffle from its definition, the JSON the
 * CLI's `raffle create --file` reads, checked here against the command's schema
 * and sent with its cover (`raffle create`). A refusal comes in the command's words.
 */
import { atom } from 'nanostores';
import type { ResultOf } from '#contract/command.ts';
import { definitionFromJson, raffleCommands, raffleSorts, type RaffleShown } from '#contract/commands/raffle.ts';
import { listSize } from '#contract/list.ts';
import { RaffleKind, RaffleState } from '#contract/raffle.ts';
import { localeCodes } from '#contract/locales.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';
import type { ListStart, ListState } from './list-url.ts';

type Done =
  | 'console.raffles.created'
  | 'console.raffles.opened'
  | 'console.raffles.closed'
  | 'console.raffles.valueSet'
  | 'console.raffles.drawn'
  | 'console.raffles.resent';

/** A registration raffle's definition to fill in: every language's text empty, the times a week out. */
export function definitionTemplate(now = Date.now()): string {
  const day = 86_400_000;
  const everywhere = () => Object.fromEntries(localeCodes.map((code) => [code, '']));
  const at = (days: number) => new Date(now + days * day).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return JSON.stringify(
    {
      Kind: 'registration',
      Title: everywhere(),
      Description: everywhere(),
      Prizes: [{ Name: everywhere(), Quantity: 1, Grant: { Kind: 'wallet', Amount: 1000 } }],
      OpensAt: at(1),
      ClosesAt: at(8),
      DrawAt: at(9),
      MinAccountAgeDays: 0,
      PublicSource: everywhere(),
    },
    null,
    2,
  );
}

export type RafflesPage = Omit<ResultOf<typeof raffleCommands.list>, 'command'>;
export type RaffleSort = (typeof raffleSorts)[number];
export type RaffleFilter = { kind: RaffleKind | ''; state: RaffleState | '' };

/** The list as it opens: every raffle, the latest opening first; the page's URL says otherwise (list-url.ts). */
export const rafflesList: ListStart<RaffleSort, RaffleFilter> = {
  columns: raffleSorts,
  start: { query: { sort: 'opens', dir: 'desc', page: 1, size: listSize.default }, filter: { kind: '', state: '' } },
};

export function createRaffles(run: RunCommand) {
  const $raffles = atom<RafflesPage | null>(null);
  const $raffle = atom<RaffleShown | null>(null);
  /** The shown raffle's first entries, once asked for. */
  const $entries = atom<NonNullable<ResultOf<typeof raffleCommands.entries>['entries']> | null>(null);
  const action = createAction<Done | 'console.raffles.refused'>();

  /** The list as last asked for, listed again after a step. */
  let listed: ListState<RaffleSort, RaffleFilter> = rafflesList.start;
  const page = async () => {
    const { query, filter } = listed;
    // A kind or state of none the list knows (typed into the URL) is any.
    const kind = RaffleKind.safeParse(filter.kind).data;
    const state = RaffleState.safeParse(filter.state).data;
    const { rows, total, page, size } = await run(raffleCommands.list, { ...query, kind, state });
    $raffles.set({ rows, total, page, size });
  };

  async function list(state: ListState<RaffleSort, RaffleFilter>): Promise<void> {
    listed = state;
    await action.run(page);
  }

  async function show(id: number): Promise<void> {
    $entries.set(null);
    await action.run(async () => $raffle.set(await run(raffleCommands.show, { id })));
  }

  async function entries(): Promise<void> {
    await action.run(async () => $entries.set((await run(raffleCommands.entries, { id: id() })).entries ?? []));
  }

  /** Runs a raffle command; on success shows the raffle as it is now and lists them all again. */
  async function step(command: () => Promise<RaffleShown>, done: Done): Promise<void> {
    await action.run(async () => {
      const result = await command();
      if (result.refused || !result.raffle) return action.refuse('console.raffles.refused', { reason: result.refused ?? '' });
      $raffle.set(result);
      await page();
      action.say('ok', done);
    });
  }

  /** A new raffle from the definition's JSON text and its cover (base64, or none); a definition the command would refuse is refused here, saying where. */
  async function create(json: string, cover?: string): Promise<void> {
    const read = definitionFromJson(json);
    if ('problem' in read) return action.refuse('console.raffles.refused', { reason: read.problem });
    await step(() => run(raffleCommands.create, { definition: read.definition }, cover), 'console.raffles.created');
  }

  /** The shown raffle's id: the page offers its steps only with a raffle shown (0, no raffle's id, the command refuses). */
  const id = () => $raffle.get()?.raffle?.id ?? 0;

  return {
    $raffles,
    $raffle,
    $entries,
    $busy: action.$busy,
    $notice: action.$notice,
    list,
    show,
    entries,
    create,
    open: () => step(() => run(raffleCommands.open, { id: id() }), 'console.raffles.opened'),
    close: () => step(() => run(raffleCommands.close, { id: id() }), 'console.raffles.closed'),
    enterValue: (value: string) => step(() => run(raffleCommands.value, { id: id(), value: value.trim() }), 'console.raffles.valueSet'),
    draw: () => step(() => run(raffleCommands.draw, { id: id() }), 'console.raffles.drawn'),
    resend: (number: number) => step(() => run(raffleCommands.resend, { id: id(), number }), 'console.raffles.resent'),
  };
}
