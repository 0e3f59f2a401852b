import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat.js';
import utc from 'dayjs/plugin/utc.js';
import 'dayjs/locale/en-gb.js';
import 'dayjs/locale/zh-cn.js';
import 'dayjs/locale/zh-tw.js';
import 'dayjs/locale/es.js';
import 'dayjs/locale/it.js';
import 'dayjs/locale/ja.js';
import 'dayjs/locale/ko.js';
import 'dayjs/locale/ru.js';
import { getLocale, type LocaleCode } from './locales.ts';

dayjs.extend(utc);
dayjs.extend(localizedFormat);

/** A content date (a calendar day, stored as UTC midnight) in the locale's long format, e.g. 2026年11月19日. */
export function formatDate(date: Date, code: LocaleCode): string {
  return dayjs.utc(date).locale(getLocale(code).dayjs).format('LL');
}

/** The machine form for <time datetime> and feeds (spec §9: YYYY-MM-DD). */
export function isoDate(date: Date): string {
  return dayjs.utc(date).format('YYYY-MM-DD');
}

/** A moment (an ISO timestamp) in the reader's time zone and the locale's date-and-time format, e.g. 2026年11月22日 14:05. */
export function formatDateTime(iso: string, code: LocaleCode): string {
  return dayjs(iso).locale(getLocale(code).dayjs).format('LLL');
}
