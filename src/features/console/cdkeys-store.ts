/**
 * The console's cdkeys area: a new batch (`cdkey create`), a batch looked up
 * and its unused keys handed out (`cdkey show|export`) or revoked (`cdkey
 * revoke --batch`), and one key checked or revoked (`cdkey check|revoke`).
 * What a batch grants: fen to the wallet, days of cloud idling, or an amount
 * of a Steam recharge product in its currency.
 */
import { atom } from 'nanostores';
import type { ArgsOf, ResultOf } from '#contract/command.ts';
import { activationCommands, batchSorts } from '#contract/commands/activation.ts';
import { commerceCommands } from '#contract/commands/commerce.ts';
import type { Product } from '#contract/commerce.ts';
import { listSize } from '#contract/list.ts';
import { minorOf } from '@/lib/money-input.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';
import type { ListStart, ListState } from './list-url.ts';

type CreateArgs = ArgsOf<typeof activationCommands.create>;
export type Batch = NonNullable<ResultOf<typeof activationCommands.show>['batch']>;
export type KeyState = ResultOf<typeof activationCommands.check>;

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

/** The batch's grant, or null while the form does not say a valid one. */
function grantOf(form: BatchForm, products: readonly Product[]): CreateArgs['grant'] | null {
  if (form.kind === 'wallet') {
    const fen = minorOf(form.amount, 'CNY');
    return fen && fen > 0 ? { Kind: 'wallet', Amount: fen } : null;
  }
  if (form.kind === 'membership') return /^[1-9]\d{0,4}$/.test(form.days.trim()) ? { Kind: 'membership', Days: Number(form.days.trim()) } : null;
  const product = products.find((candidate) => candidate.Code === form.product);
  const amount = product?.Currency ? minorOf(form.amount, product.Currency) : null;
  return product && amount ? { Kind: 'steamRecharge', Product: product.Code, Amount: amount } : null;
}

/** `cdkey create`'s arguments, or null while the form is not complete. */
export function createArgs(form: BatchForm, products: readonly Product[]): CreateArgs | null {
  const grant = grantOf(form, products);
  const batch = form.name.trim();
  if (!grant || !/^[a-z0-9-]{1,40}$/.test(batch) || !/^[1-9]\d{0,4}$/.test(form.count.trim())) return null;
  return { batch, count: Number(form.count.trim()), grant, ...(form.expires ? { expires: form.expires } : {}) };
}

export type BatchesPage = Omit<ResultOf<typeof activationCommands.batches>, 'command'>;
export type BatchSort = (typeof batchSorts)[number];
export type BatchFilter = { search: string; state: 'current' | 'expired' | '' };

/** The batches as the list opens: every one, newest first; the page's URL says otherwise (list-url.ts). */
export const batchesList: ListStart<BatchSort, BatchFilter> = {
  columns: batchSorts,
  start: { query: { sort: 'created', dir: 'desc', page: 1, size: listSize.default }, filter: { search: '', state: '' } },
};

export function createCdkeys(run: RunCommand) {
  const $products = atom<Product[]>([]);
  const $batches = atom<BatchesPage | null>(null);
  const listAction = createAction();

  async function listBatches({ query, filter }: ListState<BatchSort, BatchFilter>): Promise<void> {
    // What the form leaves empty (or a state typed into the URL the list does not know) is no condition.
    const state = filter.state === 'current' || filter.state === 'expired' ? filter.state : undefined;
    await listAction.run(async () => {
      const { rows, total, page, size } = await run(activationCommands.batches, { ...query, search: filter.search.trim() || undefined, state });
      $batches.set({ rows, total, page, size });
    });
  }
  const $batch = atom<Batch | null>(null);
  /** The unused keys of the batch shown, once made or exported. */
  const $keys = atom<string[]>([]);
  const $key = atom<KeyState | null>(null);
  const action = createAction<
    'console.cdkeys.created' | 'console.cdkeys.incomplete' | 'console.cdkeys.noBatch' | 'console.cdkeys.revoked' | 'console.cdkeys.noKey'
  >();

  async function loadProducts(): Promise<void> {
    const listed = await run(commerceCommands.productList, {});
    $products.set(listed.products.filter((product) => product.Kind === 'steamRecharge' && product.Active));
  }

  async function create(form: BatchForm): Promise<void> {
    const args = createArgs(form, $products.get());
    if (!args) return action.refuse('console.cdkeys.incomplete');
    await action.run(async () => {
      // A name taken or an amount the product does not sell is refused in the server's words, in the operator's language.
      const made = await run(activationCommands.create, args);
      $batch.set(made.batch);
      $keys.set(made.keys);
      action.say('ok', 'console.cdkeys.created', { count: made.keys.length });
    });
  }

  async function show(name: string, withKeys: boolean): Promise<void> {
    await action.run(async () => {
      const found = await run(withKeys ? activationCommands.export : activationCommands.show, { batch: name.trim() });
      $batch.set(found.batch);
      $keys.set(found.keys);
      if (!found.batch) action.refuse('console.cdkeys.noBatch', { name: name.trim() });
    });
  }

  async function revokeBatch(): Promise<void> {
    const batch = $batch.get();
    if (!batch) return;
    await action.run(async () => {
      const { revoked } = await run(activationCommands.revoke, { batch: batch.name });
      $batch.set((await run(activationCommands.show, { batch: batch.name })).batch);
      $keys.set([]);
      action.say('ok', 'console.cdkeys.revoked', { count: revoked });
    });
  }

  async function check(key: string): Promise<void> {
    await action.run(async () => {
      const state = await run(activationCommands.check, { key: key.trim() });
      $key.set(state);
      if (!state.state) action.refuse('console.cdkeys.noKey');
    });
  }

  async function revokeKey(): Promise<void> {
    const key = $key.get()?.key;
    if (!key) return;
    await action.run(async () => {
      const { revoked } = await run(activationCommands.revoke, { key });
      $key.set(await run(activationCommands.check, { key }));
      action.say('ok', 'console.cdkeys.revoked', { count: revoked });
    });
  }

  return {
    $products,
    $batches,
    $batch,
    $keys,
    $key,
    $busy: action.$busy,
    $notice: action.$notice,
    list: { $busy: listAction.$busy, $notice: listAction.$notice },
    loadProducts,
    listBatches,
    create,
    show,
    revokeBatch,
    check,
    revokeKey,
  };
}
