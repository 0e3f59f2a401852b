/** How a cdkey's grant reads in the page's language ("CN¥10 to the wallet", "30 days of cloud idling"). */
import type { CdkeyGrant } from '#contract/activation.ts';
import { formatDays, formatMoney, formatPrice } from '#contract/facts.ts';
import type { Translate } from '@/i18n/strings.ts';

export type GrantKey = 'account.redemption.grant.wallet' | 'account.redemption.grant.membership' | 'account.redemption.grant.steamRecharge';

export function grantText(grant: CdkeyGrant, locale: string, t: Translate<GrantKey>): string {
  if (grant.Kind === 'wallet') return t('account.redemption.grant.wallet', { amount: formatPrice(grant.Amount, locale) });
  if (grant.Kind === 'membership') return t('account.redemption.grant.membership', { period: formatDays(grant.Days, locale) });
  return t('account.redemption.grant.steamRecharge', { amount: formatMoney(grant.Amount, grant.Currency, locale) });
}
