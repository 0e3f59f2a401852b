/**
 * Which quick-login providers this server offers, and where they are.
 *
 * Steam needs no registration, so it is always on: Steam's own OpenID
 * provider, or `STEAM_OPENID_URL`. Microsoft and QQ need an app registration
 * and are on when their credentials are set. Outside production a provider
 * that is not configured is the development one under /api/dev/idp, which
 * lives on the API's own origin — so providers are built per origin (an
 * origin that only varies outside production, see `apiOrigin`).
 */
import { quickLoginProviders, type QuickLoginProvider } from '#contract/account.ts';
import { devIdentityProvider } from '#contract/dev.ts';
import { devStandInsAllowed, type Config } from '../../../config.ts';
import type { Database } from '../../../db/database.ts';
import { microsoftProvider } from './microsoft.ts';
import type { IdentityProvider } from './provider.ts';
import { qqProvider } from './qq.ts';
import { steamProvider } from './steam.ts';

const steamIdentifier = 'https://steamcommunity.com/openid';

export class ProviderRegistry {
  readonly #config: Config;
  readonly #db: Database;
  readonly #byOrigin = new Map<string, Map<QuickLoginProvider, IdentityProvider>>();

  constructor(config: Config, db: Database) {
    this.#config = config;
    this.#db = db;
  }

  /** The provider, or null when this server does not offer it. */
  get(provider: QuickLoginProvider, apiOrigin: string): IdentityProvider | null {
    return this.all(apiOrigin).get(provider) ?? null;
  }

  /** The providers offered, in the order of `quickLoginProviders`. */
  all(apiOrigin: string): Map<QuickLoginProvider, IdentityProvider> {
    let providers = this.#byOrigin.get(apiOrigin);
    if (!providers) {
      providers = this.#build(apiOrigin);
      this.#byOrigin.set(apiOrigin, providers);
    }
    return providers;
  }

  #build(apiOrigin: string): Map<QuickLoginProvider, IdentityProvider> {
    const config = this.#config;
    const devIdp = devStandInsAllowed(config) ? `${apiOrigin}/api${devIdentityProvider.path}` : null;
    const devClient = { clientId: devIdentityProvider.clientId, clientSecret: devIdentityProvider.clientSecret };
    const built: Partial<Record<QuickLoginProvider, IdentityProvider>> = {};

    const steamAt = config.STEAM_OPENID_URL ?? steamIdentifier;
    built.steam = steamProvider(
      config.STEAM_OPENID_URL || !devIdp
        ? { identifier: steamAt, webApi: config.STEAM_WEB_API_URL, apiKey: config.STEAM_API_KEY ?? null, checkUrl: `${new URL(steamAt).origin}/favicon.ico` }
        : { identifier: `${devIdp}/steam`, webApi: `${devIdp}/steam/api`, apiKey: devClient.clientSecret, checkUrl: `${devIdp}/steam/check.svg` },
      this.#db,
    );

    if (config.MICROSOFT_CLIENT_ID && config.MICROSOFT_CLIENT_SECRET)
      built.microsoft = microsoftProvider({
        issuer: config.MICROSOFT_ISSUER,
        clientId: config.MICROSOFT_CLIENT_ID,
        clientSecret: config.MICROSOFT_CLIENT_SECRET,
      });
    else if (devIdp) built.microsoft = microsoftProvider({ issuer: `${devIdp}/microsoft`, ...devClient });

    if (config.QQ_APP_ID && config.QQ_APP_KEY) built.qq = qqProvider({ base: config.QQ_URL, appId: config.QQ_APP_ID, appKey: config.QQ_APP_KEY });
    else if (devIdp) built.qq = qqProvider({ base: `${devIdp}/qq`, appId: devClient.clientId, appKey: devClient.clientSecret });

    return new Map(quickLoginProviders.flatMap((name) => (built[name] ? [[name, built[name]] as const] : [])));
  }
}
