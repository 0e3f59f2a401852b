/**
 * The page's one realtime connection, made for the logged-in user:
 * islands follow it through `hub` (each with its own release), and while
 * anything watches or follows it, it follows the session's access token —
 * dropped on logout, rebuilt when another login replaces the token.
 */
import { onMount } from 'nanostores';
import { identity } from '#contract/identity.ts';
import { hubPath } from '#contract/realtime.ts';
import { call } from '@/lib/api/client.ts';
import { apiBase } from '@/lib/api/config.ts';
import { isTokenValid } from '@/lib/auth-token.ts';
import { createHubClient, type HubTokenStore, type KeptHubToken } from '@/lib/realtime/hub-client.ts';
import { readJson, storageKeys, writeJson } from '@/lib/storage.ts';
import { $authToken, loginKey } from './session.ts';

/** The hub token in localStorage, under the login it was fetched for, so the next page load of that login reuses it. */
export const storedHubTokens: HubTokenStore = {
  read(accessToken) {
    const kept = readJson<KeptHubToken & { login: string }>(storageKeys.hubToken);
    return kept?.login === loginKey(accessToken) ? { hubToken: kept.hubToken, fetchedAt: kept.fetchedAt } : null;
  },
  write(accessToken, kept) {
    writeJson(storageKeys.hubToken, kept && { ...kept, login: loginKey(accessToken) });
  },
};

export const hub = createHubClient({
  url: `${apiBase}${hubPath}`,
  fetchHubToken: (accessToken) => call(identity.hubToken, { token: accessToken }),
  hubTokens: storedHubTokens,
});

// The hub client mounts its state for every follower, so this runs exactly while the connection matters.
onMount(hub.$state, () => $authToken.subscribe((token) => hub.setAccessToken(isTokenValid(token) ? token.AccessToken : null)));
