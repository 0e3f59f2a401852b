/**
 * The store token and the customer-service link: each fetched
 * once per login and kept 86,000 s (the server's store token lasts a day and
 * the link's reference as long, so a kept one always has time left); logout
 * clears them with every cached answer. A refusal is not kept: its message
 * is the server's, shown where the user asked.
 */
import { identity, support } from '#contract/identity.ts';
import { call, routeUrl } from '@/lib/api/client.ts';
import { ApiFailure } from '@/lib/api/errors.ts';
import { cacheTimes } from '@/lib/api/query.ts';
import { $authToken, perLoginStore } from './session.ts';

type StoreLogin = { token: string; expires_in: number };

/** A refusal in the answer's own fields (status or isSuccess false): a failure like any other, not cached, in the server's words. */
const refused = (serverMessage: string) => new ApiFailure('server', { serverMessage });

const $storeLogin = perLoginStore<StoreLogin>('store-token:', cacheTimes.storeToken, async () => {
  const answer = await call(identity.storeToken, { token: $authToken.get()?.AccessToken });
  if (!answer.status || !answer.data) throw refused(answer.msg);
  return answer.data;
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
  return { url: plain, failure: serverWords(error) ?? fallback };
}

const $serviceLink = perLoginStore<string>('service-link:', cacheTimes.serviceLink, async () => {
  const answer = await call(support.customerService, { token: $authToken.get()?.AccessToken });
  if (!answer.isSuccess || !answer.data) throw refused(answer.message);
  return answer.data;
});

/** The signed customer-service address; a refusal throws with the server's message, any other failure as the call failed. */
export async function serviceLink(): Promise<string> {
  const result = await $serviceLink.fetch();
  if ('data' in result && result.data) return result.data;
  throw 'error' in result ? result.error : refused('');
}

function serverWords(error: unknown): string | undefined {
  return (error instanceof ApiFailure && error.serverMessage) || undefined;
}
