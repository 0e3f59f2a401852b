/** The quick-login identities as people know them: by brand, the same in every language (Microsoft's is the Xbox network). */
import { quickLoginProviders } from '#contract/account.ts';

export { quickLoginProviders };

const brands: Record<string, string> = { steam: 'Steam', microsoft: 'Xbox', qq: 'QQ' };

export const providerName = (provider: string): string => brands[provider] ?? provider;
