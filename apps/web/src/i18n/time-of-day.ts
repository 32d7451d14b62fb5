// The "Updated 10:05:44 PM" line of every widget card: one Intl.DateTimeFormat per language, built once.
// Kept apart from format.ts (which the signed-in chunk carries) so that the entry can build it early.
const formats = new Map<string, Intl.DateTimeFormat>();

function timeFormat(language: string): Intl.DateTimeFormat {
  let f = formats.get(language);
  if (!f) {
    f = new Intl.DateTimeFormat(language, { hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(language, f);
  }
  return f;
}

/**
 * What `Date#toLocaleTimeString(language)` writes (hour, minute and second), from a formatter built once per
 * language: `toLocaleTimeString` builds a new one on every call, which on a dashboard's first render (a
 * widget card's "Updated" line each) cost more main-thread time than the cards themselves.
 */
export function formatTimeOfDay(date: Date | number, language: string): string {
  return timeFormat(language).format(date);
}

/**
 * Builds the language's formatter now. The first date formatter of a page loads the browser's locale data
 * (~15 ms, ~60 ms on a phone): done while the signed-in page's scripts and first reads are on the network, it
 * is no longer part of the dashboard's first render (decision 0006).
 */
export function prepareTimeOfDay(language: string) {
  timeFormat(language).format(0);
}
