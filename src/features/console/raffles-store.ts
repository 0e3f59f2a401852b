/**
 * The console's raffles area: every raffle (`raffle list`), one with its
 * winners and their claims (`raffle show`) and its entries (`raffle
 * entries`), and what an operator does to one:
 * open it early, close it, enter the public value, draw it (`raffle
 * open|close|value|draw`); and a new raffle from its definition, the JSON the
 * CLI's `raffle create --file` reads, with its cover sent along (`raffle
 * create --definition`). A refusal comes in the command's words.
 */
import { atom } from 'nanostores';
import type { CommandResult, RaffleSummary } from '#contract/admin.ts';
import { localeCodes } from '#contract/locales.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';

type Of<N extends CommandResult['command']> = CommandResult & { command: N };
/** A raffle command's answer: the raffle as it is now, its winners, and why the command did nothing. */
export type RaffleShown = Of<'raffle create' | 'raffle show' | 'raffle open' | 'raffle close' | 'raffle value' | 'raffle draw'>;
type Done = 'console.raffles.created' | 'console.raffles.opened' | 'console.raffles.closed' | 'console.raffles.valueSet' | 'console.raffles.drawn';

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

export function createRaffles(run: RunCommand) {
  const $raffles = atom<RaffleSummary[] | null>(null);
  const $raffle = atom<RaffleShown | null>(null);
  /** The shown raffle's first entries, once asked for. */
  const $entries = atom<NonNullable<Of<'raffle entries'>['entries']> | null>(null);
  const action = createAction<Done | 'console.raffles.refused'>();

  async function list(): Promise<void> {
    await action.run(async () => $raffles.set((await run<'raffle list'>(['raffle', 'list'])).raffles));
  }

  async function show(id: number): Promise<void> {
    $entries.set(null);
    await action.run(async () => $raffle.set(await run<'raffle show'>(['raffle', 'show', String(id)])));
  }

  async function entries(): Promise<void> {
    await action.run(async () => $entries.set((await run<'raffle entries'>(['raffle', 'entries', id()])).entries ?? []));
  }

  /** Runs a raffle command; on success shows the raffle as it is now and lists them all again. */
  async function step(words: [string, string, ...string[]], done: Done, attachment?: string): Promise<void> {
    await action.run(async () => {
      const result = await run<RaffleShown['command']>(words, attachment);
      if (result.refused || !result.raffle) return action.refuse('console.raffles.refused', { reason: result.refused ?? '' });
      $raffle.set(result);
      $raffles.set((await run<'raffle list'>(['raffle', 'list'])).raffles);
      action.say('ok', done);
    });
  }

  const id = () => String($raffle.get()?.raffle?.id ?? '');

  return {
    $raffles,
    $raffle,
    $entries,
    $busy: action.$busy,
    $notice: action.$notice,
    list,
    show,
    entries,
    /** `cover`: the image as base64, or none. */
    create: (definition: string, cover?: string) => step(['raffle', 'create', '--definition', definition], 'console.raffles.created', cover),
    open: () => step(['raffle', 'open', id()], 'console.raffles.opened'),
    close: () => step(['raffle', 'close', id()], 'console.raffles.closed'),
    enterValue: (value: string) => step(['raffle', 'value', id(), value.trim()], 'console.raffles.valueSet'),
    draw: () => step(['raffle', 'draw', id()], 'console.raffles.drawn'),
  };
}
