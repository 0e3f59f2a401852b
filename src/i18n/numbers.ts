import { formattingTag } from '#contract/locales.ts';
import type { LocaleCode } from './locales.ts';

/** A number as the locale writes it (digit grouping, decimal mark), with exactly `digits` decimals. */
export function formatNumber(value: number, code: LocaleCode, digits = 0): string {
  return new Intl.NumberFormat(formattingTag(code), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}
