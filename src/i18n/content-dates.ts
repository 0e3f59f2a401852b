/**
 * The dates of content (articles, releases, plugins): calendar days stored as
 * UTC midnight, formatted while the site is built. Kept apart from dates.ts,
 * which islands load, so the browser never loads dayjs's UTC plugin.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { dayjsName } from './dates.ts';
import type { LocaleCode } from './locales.ts';

dayjs.extend(utc);

/** A content date in the locale's long format, e.g. 2026年11月19日. */
export function formatDate(date: Date, code: LocaleCode): string {
  return dayjs.utc(date).locale(dayjsName(code)).format('LL');
}

/** The machine form for <time datetime> and feeds: YYYY-MM-DD. */
export function isoDate(date: Date): string {
  return dayjs.utc(date).format('YYYY-MM-DD');
}
