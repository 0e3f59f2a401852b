/** Where a request came from, as a reader reads it. */
import type { LocaleCode } from './locales.ts';
import type { Translate } from './strings.ts';

/** A country code (the server's `place`) in the reader's language; a local network and an unknown place in words. */
export function placeName(place: string | null, locale: LocaleCode, t: Translate<'account.safe.localNetwork' | 'account.safe.unknownPlace'>): string {
  if (place === 'local') return t('account.safe.localNetwork');
  if (!place) return t('account.safe.unknownPlace');
  return new Intl.DisplayNames([locale], { type: 'region' }).of(place) ?? place;
}
