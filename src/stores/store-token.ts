/**
 * The store token (spec §3, §9): fetched once per login and kept 86,000 s
 * (the server's token lasts a day, so a kept one always has time left);
 * logout clears it with every cached answer.
 */
import { identity } from '#contract/identity.ts';
import { call, routeUrl } from '@/lib/api/client.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { cacheTimes, createFetcherStore } from '@/lib/api/query.ts';
import { $authToken, $tokenKey } from './session.ts';

type StoreLogin = { token: string; expires_in: number };

/** A refused store login: not cached, and its message is the server's. */
class StoreLoginRefused extends Error {}

const $storeLogin = createFetcherStore<StoreLogin>(['store-token:', $tokenKey], {
  fetcher: async () => {
    const answer = await call(identity.storeToken, { token: $authToken.get()?.AccessToken });
    if (!answer.status || !answer.data) throw new StoreLoginRefused(answer.msg);
    return answer.data;
  },
  dedupeTime: cacheTimes.storeToken,
  revalidateOnFocus: false,
  onErrorRetry: null,
});

/**
 * Where to send the store's window: the verifier with the token, or the store
 * itself when the token call failed, with the message to show (the server's
 * own, else `fallback`).
 */
export async function storeAddress(fallback: string): Promise<{ url: string; failure: string | null }> {
  const plain = routeUrl(identity.openStore, {});
  const result = await $storeLogin.fetch();
  if ('data' in result && result.data) {
    return { url: routeUrl(identity.openStore, { body: { tk: result.data.token, t: String(result.data.expires_in) } }), failure: null };
  }
  const error = 'error' in result ? result.error : null;
  const message = error instanceof StoreLoginRefused ? error.message : error instanceof ApiFailure ? error.serverMessage : undefined;
  return { url: plain, failure: message || fallback };
}
