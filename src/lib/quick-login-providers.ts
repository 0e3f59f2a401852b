/** The quick-login identities as people know them: by brand, the same in every language (Microsoft's is the Xbox network). */
import { quickLoginProviders, type QuickLoginProvider } from '#contract/account.ts';
import { iconSvg } from '@/lib/icons.ts';

export { quickLoginProviders };

const brands: Record<string, string> = { steam: 'Steam', microsoft: 'Xbox', qq: 'QQ' };

export const providerName = (provider: string): string => brands[provider] ?? provider;

/** Xbox's mark is not in Simple Icons: a game controller stands for it. */
const marks = { steam: 'steam', microsoft: 'gamepad', qq: 'qq' } as const;

/** Each provider's mark as SVG, decorative (its name is always beside it). */
export type ProviderIcons = Record<QuickLoginProvider, string>;

/**
 * The marks, for a page to hand to its island as a prop: made while the page
 * is built, so the icon set never reaches the browser's bundles.
 */
export const providerIcons = (): ProviderIcons =>
  Object.fromEntries(quickLoginProviders.map((provider) => [provider, iconSvg(marks[provider], 20)])) as ProviderIcons;
