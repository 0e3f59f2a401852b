/**
 * Steam sign-in: OpenID 2.0 in stateless mode, by the `openid` package, which
 * checks the return address, the nonce's age and the signature (through the
 * provider's `check_authentication`). On top, Steam's own rules: the assertion
 * must come from Steam's endpoint and name a Steam id, and a nonce counts once
 * across every instance (the package remembers nonces per process only).
 * The persona name comes from the Steam Web API when a key is configured.
 */
import openid from 'openid';
import * as z from 'zod/mini';
import type { Database } from '../../../db/database.ts';
import { openidNonces } from '../../../db/schema/identity.ts';
import { ExternalLoginFailure } from './failure.ts';
import { fetchJson, type Identity, type IdentityProvider } from './provider.ts';

export interface SteamSettings {
  /** The OP identifier, `https://steamcommunity.com/openid`; its endpoint and claimed ids live below it. */
  identifier: string;
  /** The Steam Web API and its key, for the persona name; without a key the name is the Steam id. */
  webApi: string;
  apiKey: string | null;
  /** An image on the sign-in site, for the browser's reachability check. */
  checkUrl: string;
}

const PlayerSummaries = z.object({ response: z.object({ players: z.array(z.object({ steamid: z.string(), personaname: z.string() })) }) });

const rejected = (detail: string) => new ExternalLoginFailure('failed', `Steam: ${detail}`);

function verify(party: InstanceType<typeof openid.RelyingParty>, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    party.verifyAssertion(url, (error, result) => {
      if (error || !result?.authenticated || !result.claimedIdentifier) reject(rejected(error?.message ?? 'not authenticated'));
      else resolve(result.claimedIdentifier);
    });
  });
}

export function steamProvider(settings: SteamSettings, db: Database): IdentityProvider {
  const endpoint = `${settings.identifier}/login`;
  const claimedId = new RegExp(`^${settings.identifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/id/(7656119\\d{10})$`);
  // Strict mode refuses plain-http providers, which only the development one is.
  const party = (returnUrl: string) => new openid.RelyingParty(returnUrl, new URL(returnUrl).origin, true, settings.identifier.startsWith('https:'), []);

  async function personaName(steamId: string): Promise<string> {
    if (!settings.apiKey) return steamId;
    const url = new URL(`${settings.webApi}/ISteamUser/GetPlayerSummaries/v0002/`);
    url.search = new URLSearchParams({ key: settings.apiKey, steamids: steamId }).toString();
    try {
      const players = PlayerSummaries.parse(await fetchJson(url)).response.players;
      return players.find((player) => player.steamid === steamId)?.personaname || steamId;
    } catch {
      // The identity is proven; a name that cannot be read now is not worth failing the login for.
      return steamId;
    }
  }

  return {
    checkUrl: settings.checkUrl,

    signInUrl(flow) {
      return new Promise((resolve, reject) => {
        party(flow.callbackUrl).authenticate(settings.identifier, false, (error, url) => {
          if (error || !url) reject(new Error(`Steam discovery failed: ${error?.message ?? 'no URL'}`));
          else resolve(url);
        });
      });
    },

    async identify(callback, flow): Promise<Identity> {
      const params = callback.searchParams;
      if (params.get('openid.mode') === 'cancel') throw new ExternalLoginFailure('denied', 'Steam: the user cancelled');
      if (params.get('openid.op_endpoint') !== endpoint) throw rejected(`assertion from ${params.get('openid.op_endpoint')}`);
      const steamId = claimedId.exec(await verify(party(flow.callbackUrl), callback.href))?.[1];
      if (!steamId) throw rejected('the claimed id is not a Steam id');
      const nonce = params.get('openid.response_nonce') ?? '';
      const fresh = await db.insert(openidNonces).values({ endpoint, nonce }).onConflictDoNothing().returning({ nonce: openidNonces.nonce });
      if (fresh.length === 0) throw rejected('the nonce was used before');
      return { subject: steamId, displayName: await personaName(steamId) };
    },
  };
}
