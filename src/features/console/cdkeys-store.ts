/**
 * The console's cdkeys area: a new batch (`cdkey create`), a batch looked up
 * and its unused keys handed out (`cdkey show|export`) or revoked (`cdkey
 * revoke --batch`), and one key checked or revoked (`cdkey check|revoke`).
 * What a batch grants is written in the command's words: wallet:<fen>,
 * membership:<days> or steam:<product>:<amount>.
 */
import { atom } from 'nanostores';
import type { CommandResult } from '#contract/admin.ts';
import type { Product } from '#contract/commerce.ts';
import { minorOf } from '@/lib/money-input.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';

type Of<N extends CommandResult['command']> = CommandResult & { command: N };
export type Batch = NonNullable<Of<'cdkey show'>['batch']>;
export type KeyState = Of<'cdkey check'>;

export interface BatchForm {
  name: string;
  count: string;
  kind: 'wallet' | 'membership' | 'steamRecharge';
  /** In yuan for the wallet; in the product's currency for a Steam recharge. */
  amount: string;
  days: string;
  product: string;
  /** YYYY-MM-DD, or '' for never. */
  expires: string;
}

export const emptyBatch: BatchForm = { name: '', count: '10', kind: 'wallet', amount: '', days: '30', product: '', expires: '' };

/** The batch's grant in the command's words, or null while the form does not say a valid one. */
export function grantWords(form: BatchForm, products: readonly Product[]): string | null {
  if (form.kind === 'wallet') {
    const fen = minorOf(form.amount, 'CNY');
    return fen && fen > 0 ? `wallet:${fen}` : null;
  }
  if (form.kind === 'membership') return /^[1-9]\d{0,4}$/.test(form.days.trim()) ? `membership:${form.days.trim()}` : null;
  const product = products.find((candidate) => candidate.Code === form.product);
  const amount = product?.Currency ? minorOf(form.amount, product.Currency) : null;
  return product && amount ? `steam:${product.Code}:${amount}` : null;
}

/** `cdkey create`'s words, or null while the form is not complete. */
export function createWords(form: BatchForm, products: readonly Product[]): [string, string, ...string[]] | null {
  const grant = grantWords(form, products);
  const name = form.name.trim();
  if (!grant || !/^[a-z0-9-]{1,40}$/.test(name) || !/^[1-9]\d{0,4}$/.test(form.count.trim())) return null;
  const words: [string, string, ...string[]] = ['cdkey', 'create', '--batch', name, '--count', form.count.trim(), '--grants', grant];
  if (form.expires) words.push('--expires', form.expires);
  return words;
}

export function createCdkeys(run: RunCommand) {
  const $products = atom<Product[]>([]);
  const $batch = atom<Batch | null>(null);
  /** The unused keys of the batch shown, once made or exported. */
  const $keys = atom<string[]>([]);
  const $key = atom<KeyState | null>(null);
  const action = createAction<
    | 'console.cdkeys.created'
    | 'console.cdkeys.incomplete'
    | 'console.cdkeys.notCreated'
    | 'console.cdkeys.noBatch'
    | 'console.cdkeys.revoked'
    | 'console.cdkeys.noKey'
  >();

  async function loadProducts(): Promise<void> {
    const listed = await run<'product list'>(['product', 'list']);
    $products.set(listed.products.filter((product) => product.Kind === 'steamRecharge' && product.Active));
  }

  async function create(form: BatchForm): Promise<void> {
    const words = createWords(form, $products.get());
    if (!words) return action.refuse('console.cdkeys.incomplete');
    await action.run(async () => {
      let made: Of<'cdkey create'>;
      try {
        made = await run<'cdkey create'>(words);
      } catch {
        // The command refuses a name that is taken, a product it does not sell or a date gone by.
        return action.refuse('console.cdkeys.notCreated');
      }
      $batch.set(made.batch);
      $keys.set(made.keys);
      action.say('ok', 'console.cdkeys.created', { count: made.keys.length });
    });
  }

  async function show(name: string, withKeys: boolean): Promise<void> {
    await action.run(async () => {
      const found = await run<'cdkey show' | 'cdkey export'>(['cdkey', withKeys ? 'export' : 'show', name.trim()]);
      $batch.set(found.batch);
      $keys.set(found.keys);
      if (!found.batch) action.refuse('console.cdkeys.noBatch', { name: name.trim() });
    });
  }

  async function revokeBatch(): Promise<void> {
    const batch = $batch.get();
    if (!batch) return;
    await action.run(async () => {
      const { revoked } = await run<'cdkey revoke'>(['cdkey', 'revoke', '--batch', batch.name]);
      $batch.set((await run<'cdkey show'>(['cdkey', 'show', batch.name])).batch);
      $keys.set([]);
      action.say('ok', 'console.cdkeys.revoked', { count: revoked });
    });
  }

  async function check(key: string): Promise<void> {
    await action.run(async () => {
      const state = await run<'cdkey check'>(['cdkey', 'check', key.trim()]);
      $key.set(state);
      if (!state.state) action.refuse('console.cdkeys.noKey');
    });
  }

  async function revokeKey(): Promise<void> {
    const key = $key.get()?.key;
    if (!key) return;
    await action.run(async () => {
      const { revoked } = await run<'cdkey revoke'>(['cdkey', 'revoke', key]);
      $key.set(await run<'cdkey check'>(['cdkey', 'check', key]));
      action.say('ok', 'console.cdkeys.revoked', { count: revoked });
    });
  }

  return { $products, $batch, $keys, $key, $busy: action.$busy, $notice: action.$notice, loadProducts, create, show, revokeBatch, check, revokeKey };
}
