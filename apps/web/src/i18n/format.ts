import { dateFormat, formatDayMonthYearTime, formatShortUsDate } from '@forecourt/contract/formatters';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocale } from './languages.ts';

/** A date writer as `formatDateSafe` takes it: the date, and the IANA zone to show it in. */
export type DateWriter = (date: Date, timeZone?: string) => string;

const isEnglish = (language: string) => language.split('-')[0] === 'en';

/** Date and time of a widget row: English keeps the console's d/M/yyyy H:mm, other languages their own order. */
export function dateTimeWriter(language: string): DateWriter {
  if (isEnglish(language)) return formatDayMonthYearTime;
  const locale = formatLocale(language);
  return (date, timeZone) => dateFormat(locale, 'dateTime', timeZone).format(date);
}

/** A short date (shock alerts): English keeps M/d/yy, other languages their own short date. */
export function shortDateWriter(language: string): DateWriter {
  if (isEnglish(language)) return formatShortUsDate;
  const locale = formatLocale(language);
  return (date, timeZone) => dateFormat(locale, 'date', timeZone).format(date);
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
