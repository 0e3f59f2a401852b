/**
 * The product's facts — limits, periods, prices, versions, formats — stated
 * once in content/facts.json. Code reads them from here; content and UI
 * strings name them with a `{{group.name}}` placeholder that every page fills
 * in the reader's language, so no locale can state a different number
 * (tests/unit/content-facts.test.ts).
 *
 * A fact's value says how it reads:
 * - a number or a string, as it is (numbers with the locale's digit grouping);
 * - `{ "cny": 600 }`, a price in fen, in the locale's currency format for CNY;
 * - `{ "days": 15 }` (or seconds, minutes, hours, months, years), a period in
 *   the locale's words, plural forms included;
 * - a list of those, joined as the locale joins a list ("A, B and C"; with
 *   `|or`, "A, B or C").
 * `{{group.name|number}}` gives a period's bare number, for phrases like
 * "a 48-hour window"; `{{cny:50}}` is a one-off price in whole yuan.
 */
import facts from '../content/facts.json' with { type: 'json' };
import { formattingTag } from './locales.ts';

export { facts };

type Price = { cny: number };
const periodUnits = { seconds: 'second', minutes: 'minute', hours: 'hour', days: 'day', months: 'month', years: 'year' } as const;
type PeriodKey = keyof typeof periodUnits;
type Period = { [K in PeriodKey]?: number };
type Fact = string | number | Price | Period | readonly Fact[];

/** A fact placeholder: a dotted path with at least one dot, optionally `|number` or `|or`. UI parameters (`{{name}}`) have no dot. */
export const factPlaceholder = /\{\{\s*([A-Za-z]\w*(?:\.\w+)+)(\|number|\|or)?\s*\}\}/g;

/** A price that is no standing fact (a raffle prize, an example), in whole yuan: `{{cny:50}}`. */
export const pricePlaceholder = /\{\{\s*cny:(\d+)\s*\}\}/g;

/** How many of a currency's smallest unit make one (100 for CNY and USD, 1 for JPY). */
export function minorPerMajor(currency: string): number {
  return 10 ** (new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2);
}

/**
 * Where a locale's readers write a currency after the number, in a word of
 * their own rather than the symbol before it (its glossary's `register`):
 * Japanese writes yuan as 50元, where Intl gives "元 50".
 */
const unitAfterNumber: Record<string, Record<string, string>> = { ja: { CNY: '元' } };

/** An amount in a currency's smallest unit, as the locale writes money. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const perMajor = minorPerMajor(currency);
  const major = minor / perMajor;
  const unit = unitAfterNumber[locale]?.[currency];
  if (unit) {
    const digits = Math.round(Math.log10(perMajor));
    const number = new Intl.NumberFormat(formattingTag(locale), {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      trailingZeroDisplay: 'stripIfInteger',
    });
    return `${number.format(major)}${unit}`;
  }
  const format = new Intl.NumberFormat(formattingTag(locale), { style: 'currency', currency, trailingZeroDisplay: 'stripIfInteger' });
  return format.format(major);
}

/** A price in the smallest unit of CNY (fen), as the locale writes money: never a bare ¥, which reads as yen in Japan. */
export function formatPrice(fen: number, locale: string): string {
  return formatMoney(fen, 'CNY', locale);
}

/** A number of months in the locale's words ("3 months", "3か月"). */
export function formatMonths(months: number, locale: string): string {
  return format({ months }, formattingTag(locale), undefined);
}

/** A number of days as the locale writes it ("30 days", "30 天"). */
export function formatDays(days: number, locale: string): string {
  return format({ days }, formattingTag(locale), undefined);
}

function periodOf(value: object): [PeriodKey, number] | undefined {
  const entries = Object.entries(value);
  if (entries.length !== 1) return undefined;
  const [key, amount] = entries[0];
  return key in periodUnits && typeof amount === 'number' ? [key as PeriodKey, amount] : undefined;
}

/** The fact at a dotted path, or undefined. */
function factAt(path: string): Fact | undefined {
  let value: unknown = facts;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value as Fact;
}

type Modifier = '|number' | '|or' | undefined;

function format(value: Fact, locale: string, modifier: Modifier): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return new Intl.NumberFormat(locale).format(value);
  if (Array.isArray(value)) {
    const type = modifier === '|or' ? 'disjunction' : 'conjunction';
    return new Intl.ListFormat(locale, { type }).format(value.map((item: Fact) => format(item, locale, modifier)));
  }
  if ('cny' in value && typeof value.cny === 'number') return formatPrice(value.cny, locale);
  const period = periodOf(value);
  if (!period) throw new Error(`content/facts.json: ${JSON.stringify(value)} is not a number, string, price or period`);
  const [key, amount] = period;
  if (modifier === '|number') return new Intl.NumberFormat(locale).format(amount);
  return new Intl.NumberFormat(locale, { style: 'unit', unit: periodUnits[key], unitDisplay: 'long' }).format(amount);
}

/** One fact as the locale reads it; an unknown path throws, so a typo fails the build instead of showing braces. */
export function formatFact(path: string, locale: string, modifier?: Modifier): string {
  const value = factAt(path);
  if (value === undefined) throw new Error(`{{${path}}} names no fact in content/facts.json`);
  return format(value, formattingTag(locale), modifier);
}

/** The fact placeholders in `text` that name no fact (or one their modifier does not fit), with where each starts: what editors must fix. */
export function brokenFactPlaceholders(text: string): Array<{ placeholder: string; index: number }> {
  return [...text.matchAll(factPlaceholder)].flatMap((match) => {
    try {
      formatFact(match[1], 'en', match[2] as Modifier);
      return [];
    } catch {
      return [{ placeholder: match[0], index: match.index }];
    }
  });
}

/** Text with every fact placeholder filled for the locale. */
export function fillFacts(text: string, locale: string): string {
  return text
    .replace(factPlaceholder, (_, path: string, modifier?: Modifier) => formatFact(path, locale, modifier))
    .replace(pricePlaceholder, (_, yuan: string) => formatPrice(Number(yuan) * 100, locale));
}

/** A period in milliseconds, for code that waits or expires by a fact. */
export function periodMs(period: Period): number {
  const [key, amount] = periodOf(period) ?? [];
  const unitMs = { seconds: 1e3, minutes: 6e4, hours: 36e5, days: 864e5 } as Partial<Record<PeriodKey, number>>;
  const ms = key && unitMs[key];
  if (!ms || amount === undefined) throw new Error(`${JSON.stringify(period)} has no fixed length in milliseconds`);
  return amount * ms;
}
