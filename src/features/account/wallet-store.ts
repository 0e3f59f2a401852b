/** The account centre's wallet: its balance, and its ledger newest first (paged-list-store.ts). */
import { commerceCalls } from '#contract/commerce.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { createPagedList } from './paged-list-store.ts';

export const createWallet = (env: Pick<CenterEnvironment, 'call'>) => createPagedList((page) => env.call(commerceCalls.wallet, { params: { page } }));
