/**
 * Steam sign-in: OpenID 2.0 against the configured provider only. The sign-in
 * address is made for its endpoint directly (`checkid_setup` with
 * `identifier_select`), with no discovery. The answer is checked before any
 * call: an `id_res` of OpenID 2.0 from the configured endpoint, claimed id and
 * identity the same Steam id URL of that provider, made out to this login's
 * return address, a fresh nonce, and a signature covering each of those. Only
 * then is the signature checked where it was made: `check_authentication` at
 * the configured endpoint (OpenID 2.0 §11.4.2), through the outbound client —
 * nothing an answer names is ever fetched. A nonce counts once across every
 * instance (table `openid_nonces`). The persona name comes from the Steam Web
 * API when a key is configured.
 */
import * as z from 'zod/mini';
import type { Database } from '../../../db/database.ts';
import { openidNonces } from '../../../db/schema/identity.ts';
import type { OutboundFetch } from '../../../services/outbound-http.ts';
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

const openIdNs = 'http://specs.openid.net/auth/2.0';
const identifierSelect = `${openIdNs}/identifier_select`;
/** What the provider's signature must cover, or the answer could be changed where it is not signed. */
const mustBeSigned = ['op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'];
/** How far a nonce's time may lie behind (or, for a clock ahead of ours, before) now. */
const nonceMaxAgeMs = 5 * 60_000;
const nonceMaxAheadMs = 60_000;

const PlayerSummaries = z.object({ response: z.object({ players: z.array(z.object({ steamid: z.string(), personaname: z.string() })) }) });

const rejected = (detail: string) => new ExternalLoginFailure('failed', `Steam: ${detail}`);

/** The time a response nonce was made (`2005-05-15T17:11:51Z` and then anything), or null when it does not start with one. */
function nonceTime(nonce: string): number | null {
  const stamp = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)/.exec(nonce)?.[1];
  return stamp ? Date.parse(stamp) : null;
}

/** A key-value form answer (`key:value` lines, OpenID 2.0 §4.1.1). */
function keyValues(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) pairs.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return pairs;
}

export function steamProvider(settings: SteamSettings, db: Database, fetch: OutboundFetch): IdentityProvider {
  const endpoint = `${settings.identifier}/login`;
  const claimedId = new RegExp(`^${settings.identifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/id/(7656119\\d{10})$`);

  /** The answer's `openid.*` fields, each once; the Steam id it asserts, after every check that needs no call. */
  function checked(callback: URL, returnTo: string): { fields: Map<string, string>; steamId: string } {
    const fields = new Map<string, string>();
    for (const [name, value] of callback.searchParams) {
      if (!name.startsWith('openid.')) continue;
      if (fields.has(name)) throw rejected(`${name} given twice`);
      fields.set(name, value);
    }
    const field = (name: string) => fields.get(`openid.${name}`) ?? '';
    if (field('ns') !== openIdNs) throw rejected(`not an OpenID 2.0 answer (${field('ns')})`);
    if (field('mode') !== 'id_res') throw rejected(`the answer's mode is ${field('mode')}`);
    if (field('op_endpoint') !== endpoint) throw rejected(`assertion from ${field('op_endpoint')}`);
    const steamId = claimedId.exec(field('claimed_id'))?.[1];
    if (!steamId || field('identity') !== field('claimed_id'))
      throw rejected(`the claimed id ${field('claimed_id')} is not a Steam id of ${settings.identifier}`);
    if (field('return_to') !== returnTo) throw rejected(`the assertion was made out to ${field('return_to')}`);
    const made = nonceTime(field('response_nonce'));
    const now = Date.now();
    if (made === null || made < now - nonceMaxAgeMs || made > now + nonceMaxAheadMs) throw rejected(`the nonce ${field('response_nonce')} is not fresh`);
    const signed = new Set(field('signed').split(','));
    const unsigned = mustBeSigned.filter((name) => !signed.has(name));
    if (unsigned.length > 0) throw rejected(`${unsigned.join(', ')} not signed`);
    if (!field('assoc_handle') || !field('sig')) throw rejected('no signature');
    return { fields, steamId };
  }

  /** Asks the configured endpoint whether it made this signature (direct verification, OpenID 2.0 §11.4.2). */
  async function verified(fields: Map<string, string>): Promise<boolean> {
    const body = new URLSearchParams([...fields]);
    body.set('openid.mode', 'check_authentication');
    let answer: Response;
    try {
      answer = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    } catch (cause) {
      throw rejected(`check_authentication failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
    if (!answer.ok) throw rejected(`check_authentication answered ${answer.status}`);
    const pairs = keyValues(await answer.text());
    return pairs.get('ns') === openIdNs && pairs.get('is_valid') === 'true';
  }

  async function personaName(steamId: string): Promise<string> {
    if (!settings.apiKey) return steamId;
    const url = new URL(`${settings.webApi}/ISteamUser/GetPlayerSummaries/v0002/`);
    url.search = new URLSearchParams({ key: settings.apiKey, steamids: steamId }).toString();
    try {
      const players = PlayerSummaries.parse(await fetchJson(fetch, url)).response.players;
      return players.find((player) => player.steamid === steamId)?.personaname || steamId;
    } catch {
      // The identity is proven; a name that cannot be read now is not worth failing the login for.
      return steamId;
    }
  }

  return {
    checkUrl: settings.checkUrl,

    async signInUrl(flow) {
      const url = new URL(endpoint);
      for (const [name, value] of Object.entries({
        ns: openIdNs,
        mode: 'checkid_setup',
        claimed_id: identifierSelect,
        identity: identifierSelect,
        return_to: flow.callbackUrl,
        realm: new URL(flow.callbackUrl).origin,
      }))
        url.searchParams.set(`openid.${name}`, value);
      return url.href;
    },

    async identify(callback, flow): Promise<Identity> {
      if (callback.searchParams.get('openid.mode') === 'cancel') throw new ExternalLoginFailure('denied', 'Steam: the user cancelled');
      const { fields, steamId } = checked(callback, flow.callbackUrl);
      if (!(await verified(fields))) throw rejected('the provider did not confirm the signature');
      const nonce = fields.get('openid.response_nonce')!;
      const fresh = await db.insert(openidNonces).values({ endpoint, nonce }).onConflictDoNothing().returning({ nonce: openidNonces.nonce });
      if (fresh.length === 0) throw rejected('the nonce was used before');
      return { subject: steamId, displayName: await personaName(steamId) };
    },
  };
}
