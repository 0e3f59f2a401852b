import { describe, expect, it } from 'vitest';
import { formatDate, isoDate } from '@/i18n/content-dates.ts';
import { formatDateTime, formatDay } from '@/i18n/dates.ts';

// Midday UTC: the same calendar day in every time zone the tests may run in.
const moment = '2026-11-22T12:00:00.000Z';

describe('dates', () => {
  it('outside a browser page, every locale is loaded, each in its own format', () => {
    expect(formatDay(moment, 'zh-CN')).toBe('2026年11月22日');
    expect(formatDay(moment, 'ja')).toBe('2026年11月22日');
    expect(formatDay(moment, 'ko')).toBe('2026년 11월 22일');
    expect(formatDay(moment, 'ru')).toBe('22 ноября 2026 г.');
    expect(formatDay(moment, 'en')).toBe('22 November 2026');
    expect(formatDay(moment, 'es')).toBe('22 de noviembre de 2026');
    expect(formatDateTime(moment, 'it')).toMatch(/^22 novembre 2026 \d{2}:00$/);
  });

  it('a content date is the UTC calendar day it was stored as, whatever the time zone', () => {
    const day = new Date(Date.UTC(2026, 10, 19));
    expect(formatDate(day, 'en')).toBe('19 November 2026');
    expect(formatDate(day, 'zh-TW')).toBe('2026年11月19日');
    expect(isoDate(day)).toBe('2026-11-19');
  });
});
