/**
 * What a page shows of one of the account's orders, named by its address's
 * `key` (`order/detail?key=`, `order/receipt?key=`): null until read, and why
 * there is none — no key in the address, or none of this account's by it (the
 * server does not tell an unknown order from someone else's, nor from a key
 * that is no order number at all). Any other failure is the notice.
 */
import { atom } from 'nanostores';
import { ErrorCode } from '#contract/errors.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { createAction } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';

export function orderByKey<T, M extends string>(
  env: Pick<CenterEnvironment, 'location'>,
  fetch: (key: string) => Promise<T>,
  missing: { noKey: M; notFound: M },
) {
  const key = new URLSearchParams(env.location.search).get('key');
  const action = createAction();
  const $value = atom<T | null>(null);
  const $missing = atom<M | null>(key ? null : missing.noKey);

  async function read(key: string): Promise<void> {
    try {
      $value.set(await fetch(key));
    } catch (error) {
      if (error instanceof ApiFailure && (error.code === ErrorCode.NotFound || error.code === ErrorCode.BadRequest)) $missing.set(missing.notFound);
      else await action.run(() => Promise.reject(error));
    }
  }

  return { key, $value, $missing, $notice: action.$notice, read };
}
