/**
 * The page's one realtime connection (spec §4), made for the logged-in user:
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
import { createHubClient } from '@/lib/realtime/hub-client.ts';
import { $authToken } from './session.ts';

export const hub = createHubClient({
  url: `${apiBase}${hubPath}`,
  fetchHubToken: (accessToken) => call(identity.hubToken, { token: accessToken }),
});

// The hub client mounts its state for every follower, so this runs exactly while the connection matters.
onMount(hub.$state, () => $authToken.subscribe((token) => hub.setAccessToken(isTokenValid(token) ? token.AccessToken : null)));
