/**
 * The page's one realtime connection (spec §4), made for the logged-in user:
 * it follows the session's access token — dropped on logout, rebuilt when
 * another login replaces the token — and islands listen to it through `hub`.
 */
import { identity } from '../../contract/identity.ts';
import { hubPath } from '../../contract/realtime.ts';
import { call } from '../lib/api/client.ts';
import { apiBase } from '../lib/api/config.ts';
import { createHubClient } from '../lib/realtime/hub-client.ts';
import { $authToken, isTokenValid } from './session.ts';

export const hub = createHubClient({
  url: `${apiBase}${hubPath}`,
  fetchHubToken: (accessToken) => call(identity.hubToken, { token: accessToken }),
});

$authToken.subscribe((token) => hub.setAccessToken(isTokenValid(token) ? token.AccessToken : null));
