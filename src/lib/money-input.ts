import { minorPerMajor } from '#contract/facts.ts';

/** "12.5" typed for a currency with two decimals → 1250; null for anything else. */
export function minorOf(typed: string, currency: string): number | null {
  const unit = minorPerMajor(currency);
  const digits = String(unit).length - 1;
  const match = new RegExp(`^(\\d{1,7})(?:[.,](\\d{1,${Math.max(digits, 1)}}))?$`).exec(typed.trim());
  if (!match || (digits === 0 && match[2])) return null;
  return Number(match[1]) * unit + Number((match[2] ?? '').padEnd(digits, '0') || 0);
}
