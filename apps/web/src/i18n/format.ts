import { formatDayMonthYearTime, formatShortUsDate } from '@forecourt/contract/formatters';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocale } from './languages.ts';

/** A date writer as `formatDateSafe` takes it: the date, and the IANA zone to show it in. */
export type DateWriter = (date: Date, timeZone?: string) => string;

// Building an Intl.DateTimeFormat costs far more than using one: one per (locale, style, zone), reused.
const cache = new Map<string, Intl.DateTimeFormat>();
function intl(locale: string, style: 'dateTime' | 'date', timeZone?: string): Intl.DateTimeFormat {
  const key = `${locale}|${style}|${timeZone ?? ''}`;
  let f = cache.get(key);
  if (!f) {
    f =
      style === 'dateTime'
        ? new Intl.DateTimeFormat(locale, {
            timeZone,
            year: 'numeric',
            month: 'numeric',
            day: 'numeric',
            hour: 'numeric',
            minute: '2-digit',
            hourCycle: 'h23',
          })
        : new Intl.DateTimeFormat(locale, { timeZone, year: '2-digit', month: 'numeric', day: 'numeric' });
    cache.set(key, f);
  }
  return f;
}

const isEnglish = (language: string) => language.split('-')[0] === 'en';

/** Date and time of a widget row: English keeps the console's d/M/yyyy H:mm, other languages their own order. */
export function dateTimeWriter(language: string): DateWriter {
  if (isEnglish(language)) return formatDayMonthYearTime;
  const locale = formatLocale(language);
  return (date, timeZone) => intl(locale, 'dateTime', timeZone).format(date);
}

/** A short date (shock alerts): English keeps M/d/yy, other languages their own short date. */
export function shortDateWriter(language: string): DateWriter {
  if (isEnglish(language)) return formatShortUsDate;
  const locale = formatLocale(language);
  return (date, timeZone) => intl(locale, 'date', timeZone).format(date);
}

/** The date writers of the current language; they change (and rows re-render) when the language does. */
export function useDateWriters() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  return useMemo(
    () => ({ language, dateTime: dateTimeWriter(language), shortDate: shortDateWriter(language) }),
    [language],
  );
}
