/** The account centre's list of the cdkeys the user redeemed, newest first (paged-list-store.ts). */
import { activationCalls } from '#contract/activation.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { createPagedList } from './paged-list-store.ts';

export const createRedemptionList = (env: Pick<CenterEnvironment, 'call'>) =>
  createPagedList((page) => env.call(activationCalls.redemptions, { params: { page } }));
