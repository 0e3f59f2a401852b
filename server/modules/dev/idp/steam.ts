/**
 * A development Steam: an OpenID 2.0 provider as Steam's is — discovery by
 * XRDS, `checkid_setup` answered with an `id_res` assertion signed under a
 * private association (so the relying party must ask back with
 * `check_authentication`, which accepts each assertion once) — and the one
 * Steam Web API call the site makes, for persona names.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { devIdentityProvider } from '#contract/dev.ts';
import { TtlCache } from '../../../services/ttl-cache.ts';
import { sendSignInPage } from '../page.ts';

const openIdNs = 'http://specs.openid.net/auth/2.0';
const signedFields = ['signed', 'op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'];
const steamIdPattern = /^7656119\d{10}$/;

type Params = Record<string, string>;

const xrds = (type: string, endpoint: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<xrds:XRDS xmlns:xrds="xri://$xrds" xmlns="xri://$xrd*($v*2.0)"><XRD><Service priority="0"><Type>${type}</Type><URI>${endpoint}</URI></Service></XRD></xrds:XRDS>`;

export function devSteam(idp: FastifyInstance, base: string): void {
  // The private association's secret: only this process can check what it signed.
  const secret = randomBytes(32);
  const checkedNonces = new TtlCache<string, true>(10 * 60_000, 100_000);
  const personaNames = new TtlCache<string, string>(24 * 3_600_000, 10_000);
  const identifier = `${base}/steam`;

  const signature = (params: Params) =>
    createHmac('sha256', secret)
      .update(
        params['openid.signed']
          .split(',')
          .map((field) => `${field}:${params[`openid.${field}`] ?? ''}\n`)
          .join(''),
      )
      .digest('base64');

  idp.get('/steam', async (_request, reply) => reply.type('application/xrds+xml').send(xrds(`${openIdNs}/server`, `${identifier}/login`)));
  idp.get<{ Params: { id: string } }>('/steam/id/:id', async (_request, reply) =>
    reply.type('application/xrds+xml').send(xrds(`${openIdNs}/signon`, `${identifier}/login`)),
  );

  idp.get<{ Querystring: Params }>('/steam/login', async (request, reply) => {
    const query = request.query;
    if (query['openid.mode'] !== 'checkid_setup' || !query['openid.return_to']?.startsWith(query['openid.realm'] ?? '\0'))
      return reply.code(400).type('text/plain').send('Not an OpenID 2.0 checkid_setup request with a return_to inside its realm');
    const id = `7656119${String(randomBytes(5).readUIntBE(0, 5) % 10_000_000_000).padStart(10, '0')}`;
    return sendSignInPage(reply, { provider: 'Steam', idLabel: 'SteamID64', id, name: 'Dev Gamer', hidden: { return_to: query['openid.return_to'] } });
  });

  idp.post<{ Body: Params }>('/steam/login', async (request, reply) => {
    const body = request.body ?? {};
    // The relying party checks an assertion it was given.
    if (body['openid.mode'] === 'check_authentication') {
      const fresh = !checkedNonces.get(body['openid.response_nonce'] ?? '');
      const expected = body['openid.signed'] ? Buffer.from(signature(body)) : null;
      const given = Buffer.from(body['openid.sig'] ?? '');
      const valid = fresh && expected !== null && expected.length === given.length && timingSafeEqual(expected, given);
      if (valid) checkedNonces.set(body['openid.response_nonce'], true);
      return reply.type('text/plain').send(`ns:${openIdNs}\nis_valid:${valid}\n`);
    }
    // The person answered the sign-in page.
    const returnTo = new URL(body.return_to ?? '');
    const answer = (params: Params) => {
      for (const [key, value] of Object.entries(params)) returnTo.searchParams.set(key, value);
      return reply.redirect(returnTo.href, 302);
    };
    if (body.decision !== 'allow') return answer({ 'openid.ns': openIdNs, 'openid.mode': 'cancel' });
    if (!steamIdPattern.test(body.id ?? '')) return reply.code(400).type('text/plain').send('A SteamID64 is 17 digits starting with 7656119');
    personaNames.set(body.id, body.name?.trim() || body.id);
    const claimedId = `${identifier}/id/${body.id}`;
    const params: Params = {
      'openid.ns': openIdNs,
      'openid.mode': 'id_res',
      'openid.op_endpoint': `${identifier}/login`,
      'openid.claimed_id': claimedId,
      'openid.identity': claimedId,
      'openid.return_to': body.return_to,
      'openid.response_nonce': `${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}${randomBytes(6).toString('hex')}`,
      'openid.assoc_handle': 'dev-private',
      'openid.signed': signedFields.join(','),
    };
    return answer({ ...params, 'openid.sig': signature(params) });
  });

  idp.get<{ Querystring: Params }>('/steam/api/ISteamUser/GetPlayerSummaries/v0002/', async (request, reply) => {
    if (request.query.key !== devIdentityProvider.clientSecret) return reply.code(403).type('text/plain').send('Forbidden');
    const players = (request.query.steamids ?? '')
      .split(',')
      .filter((steamid) => personaNames.get(steamid))
      .map((steamid) => ({ steamid, personaname: personaNames.get(steamid) }));
    return { response: { players } };
  });

  // What the login page loads to see whether "Steam" is reachable.
  idp.get('/steam/check.svg', async (_request, reply) => reply.type('image/svg+xml').send('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'));
}
