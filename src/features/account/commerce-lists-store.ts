/** The account centre's paged lists of commerce: the orders and the wallet (paged-list-store.ts). */
import { commerceCalls } from '#contract/commerce.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { createPagedList } from './paged-list-store.ts';

/** The user's orders, newest first. */
export const createOrderList = (env: Pick<CenterEnvironment, 'call'>) => createPagedList((page) => env.call(commerceCalls.orders, { params: { page } }));

/** The wallet: its balance, and its ledger newest first. */
export const createWallet = (env: Pick<CenterEnvironment, 'call'>) => createPagedList((page) => env.call(commerceCalls.wallet, { params: { page } }));
