import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat.js';
import { localeCodes, locales, type LocaleCode } from './locales.ts';

dayjs.extend(localizedFormat);

/**
 * Each locale's dayjs file, loaded on its own so that a page in the browser
 * fetches only its reader's. The paths are written out for the bundler, which
 * makes each file a chunk of its own.
 */
const localeFiles: Record<LocaleCode, () => Promise<{ default: { name: string } }>> = {
  'zh-CN': () => import('dayjs/locale/zh-cn.js'),
  'zh-TW': () => import('dayjs/locale/zh-tw.js'),
  en: () => import('dayjs/locale/en-gb.js'),
  es: () => import('dayjs/locale/es.js'),
  it: () => import('dayjs/locale/it.js'),
  ja: () => import('dayjs/locale/ja.js'),
  ko: () => import('dayjs/locale/ko.js'),
  ru: () => import('dayjs/locale/ru.js'),
};

/** The name dayjs knows each loaded locale by (en is British English: day before month). */
const dayjsNames = new Map<LocaleCode, string>();

// A page in the browser formats in the language of its <html lang> only; the
// build (and Node) renders every locale. Modules that import this one wait for
// the locale, so the first render already has the reader's date formats.
const pageLocale = locales.find((l) => l.tag === globalThis.document?.documentElement.lang)?.code;
await Promise.all((pageLocale ? [pageLocale] : localeCodes).map(async (code) => dayjsNames.set(code, (await localeFiles[code]()).default.name)));

/** dayjs's name of a loaded locale; dayjs's own English for one this page did not load. */
export const dayjsName = (code: LocaleCode): string => dayjsNames.get(code) ?? 'en';

/** A moment (an ISO timestamp) in the reader's time zone and the locale's date-and-time format, e.g. 2026年11月22日 14:05. */
export function formatDateTime(iso: string, code: LocaleCode): string {
  return dayjs(iso).locale(dayjsName(code)).format('LLL');
}

/** The day of a moment (an ISO timestamp) in the reader's time zone and the locale's long format, e.g. 2026年11月22日. */
export function formatDay(iso: string, code: LocaleCode): string {
  return dayjs(iso).locale(dayjsName(code)).format('LL');
}

/** A calendar day (`YYYY-MM-DD`, no time or zone) as its month and day in the locale, short for a chart's axis: 7 Dec, 12月7日, 7 дек. */
export function formatMonthDay(day: string, code: LocaleCode): string {
  return dayjs(day).locale(dayjsName(code)).format(monthDayFormats[code]);
}

/** Each locale's month-and-day format (dayjs has none of its own). */
const monthDayFormats: Record<LocaleCode, string> = {
  'zh-CN': 'M月D日',
  'zh-TW': 'M月D日',
  en: 'D MMM',
  es: 'D MMM',
  it: 'D MMM',
  ja: 'M月D日',
  ko: 'M월 D일',
  ru: 'D MMM',
};
