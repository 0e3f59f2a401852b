/**
 * Which quick-login providers this server offers, and where they are.
 *
 * Steam needs no registration, so it is always on: Steam's own OpenID
 * provider, or `STEAM_OPENID_URL`. Microsoft and QQ need an app registration
 * and are on when their credentials are set. Outside production a provider
 * that is not configured is the development one under /api/dev/idp, which
 * lives on the API's own origin (`apiOrigin`). Every provider calls out
 * through the outbound client.
 */
import { quickLoginProviders, type QuickLoginProvider } from '#contract/account.ts';
import { devIdentityProvider } from '#contract/dev.ts';
import { apiOrigin, devStandInsAllowed, type Config } from '../../../config.ts';
import type { Database } from '../../../db/database.ts';
import type { OutboundFetch } from '../../../services/outbound-http.ts';
import { microsoftProvider } from './microsoft.ts';
import type { IdentityProvider } from './provider.ts';
import { qqProvider } from './qq.ts';
import { steamProvider } from './steam.ts';

const steamIdentifier = 'https://steamcommunity.com/openid';

/** The providers this server offers, in the order of `quickLoginProviders`. */
export function identityProviders(config: Config, db: Database, fetch: OutboundFetch): Map<QuickLoginProvider, IdentityProvider> {
  const devIdp = devStandInsAllowed(config) ? `${apiOrigin(config)}/api${devIdentityProvider.path}` : null;
  const devClient = { clientId: devIdentityProvider.clientId, clientSecret: devIdentityProvider.clientSecret };
  const built: Partial<Record<QuickLoginProvider, IdentityProvider>> = {};

  const steamAt = config.STEAM_OPENID_URL ?? steamIdentifier;
  built.steam = steamProvider(
    config.STEAM_OPENID_URL || !devIdp
      ? { identifier: steamAt, webApi: config.STEAM_WEB_API_URL, apiKey: config.STEAM_API_KEY ?? null, checkUrl: `${new URL(steamAt).origin}/favicon.ico` }
      : { identifier: `${devIdp}/steam`, webApi: `${devIdp}/steam/api`, apiKey: devClient.clientSecret, checkUrl: `${devIdp}/steam/check.svg` },
    db,
    fetch,
  );

  if (config.MICROSOFT_CLIENT_ID && config.MICROSOFT_CLIENT_SECRET)
    built.microsoft = microsoftProvider(
      { issuer: config.MICROSOFT_ISSUER, clientId: config.MICROSOFT_CLIENT_ID, clientSecret: config.MICROSOFT_CLIENT_SECRET },
      fetch,
    );
  else if (devIdp) built.microsoft = microsoftProvider({ issuer: `${devIdp}/microsoft`, ...devClient }, fetch);

  if (config.QQ_APP_ID && config.QQ_APP_KEY) built.qq = qqProvider({ base: config.QQ_URL, appId: config.QQ_APP_ID, appKey: config.QQ_APP_KEY }, fetch);
  else if (devIdp) built.qq = qqProvider({ base: `${devIdp}/qq`, appId: devClient.clientId, appKey: devClient.clientSecret }, fetch);

  return new Map(quickLoginProviders.flatMap((name) => (built[name] ? [[name, built[name]] as const] : [])));
}
