/** The account centre's list of the user's orders, newest first (paged-list-store.ts). */
import { commerceCalls } from '#contract/commerce.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { createPagedList } from './paged-list-store.ts';

export const createOrderList = (env: Pick<CenterEnvironment, 'call'>) => createPagedList((page) => env.call(commerceCalls.orders, { params: { page } }));
