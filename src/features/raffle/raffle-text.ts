/** How raffle data reads in the page's language: texts, prizes, odds and countdowns. */
import { formattingTag } from '#contract/locales.ts';
import { rollRange, type LocalizedText, type Prize } from '#contract/raffle.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import type { Translate } from '@/i18n/strings.ts';
import { grantText, type GrantKey } from '@/lib/grant-text.ts';

/** A raffle id the page's query names (`?id=`, `?instant=`), or null. */
export function idInQuery(name: string): number | null {
  const value = new URLSearchParams(location.search).get(name);
  return value && /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : null;
}

export const textIn = (text: LocalizedText, locale: LocaleCode) => text[locale];

/** A prize by its name, with what claiming it gives when that is not already its name's point. */
export function prizeName(prize: Prize | undefined, locale: LocaleCode): string {
  return prize ? textIn(prize.Name, locale) : '-';
}

export function prizeGrant(prize: Prize, locale: LocaleCode, t: Translate<GrantKey>): string | null {
  return prize.Grant && grantText(prize.Grant, locale, t);
}

/** Odds in parts per million as a percentage ("20 %", "0,5 %"). */
export function oddsText(odds: number, locale: LocaleCode): string {
  return new Intl.NumberFormat(formattingTag(locale), { style: 'percent', maximumFractionDigits: 4 }).format(odds / rollRange);
}

const units = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
] as const;

/** A time left as the locale writes short units ("5d 3h 12m 9s", "5日3時間12分9秒"), the two largest parts that matter. */
export function timeLeft(ms: number, locale: LocaleCode): string {
  let rest = Math.max(0, ms);
  const parts: string[] = [];
  for (const [unit, size] of units) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0 || parts.length > 0 || unit === 'second')
      parts.push(new Intl.NumberFormat(formattingTag(locale), { style: 'unit', unit, unitDisplay: 'narrow' }).format(amount));
  }
  return parts.slice(0, partsShown(ms)).join(' ');
}

/** Over a day away, days and hours are enough; closer, every part down to seconds. */
const partsShown = (ms: number) => (ms >= 86_400_000 ? 2 : 3);
