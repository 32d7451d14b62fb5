import { describe, expect, it } from 'vitest';
import { dateTimeWriter, shortDateWriter } from './format.ts';
import { formatTimeOfDay } from './time-of-day.ts';

const at = new Date('2026-11-24T14:05:09Z');

describe('dates in the language of the console', () => {
  it('English keeps the console formats: d/M/yyyy H:mm and M/d/yy', () => {
    expect(dateTimeWriter('en')(at, 'UTC')).toBe('24/11/2026 14:05');
    expect(shortDateWriter('en')(at, 'UTC')).toBe('11/24/26');
  });

  it('French and Arabic write dates their own way', () => {
    expect(dateTimeWriter('fr')(at, 'UTC')).toBe('24/11/2026 14:05');
    expect(shortDateWriter('fr')(at, 'UTC')).toBe('24/11/26');
    const ar = dateTimeWriter('ar')(at, 'UTC');
    expect(ar).toMatch(/^24\u200F?\/11\u200F?\/2026/); // day first, right-to-left marks between the parts
    expect(ar).toContain('\u060C'); // the Arabic comma between date and time
    expect(ar).not.toBe(dateTimeWriter('en')(at, 'UTC'));
  });
});

describe('the time of day of a widget card', () => {
  it('writes what toLocaleTimeString writes, in each language', () => {
    for (const language of ['en', 'fr', 'ar']) {
      expect(formatTimeOfDay(at, language)).toBe(at.toLocaleTimeString(language));
      expect(formatTimeOfDay(at.getTime(), language)).toBe(at.toLocaleTimeString(language));
    }
  });
});
