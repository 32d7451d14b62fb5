import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH_TEXTS } from '@forecourt/contract/auth';
import { COMMAND_STATE_VIEW, COMMAND_STATES } from '@forecourt/contract/commands';
import { MESSAGES } from '@forecourt/contract/validation';
import { describe, expect, it } from 'vitest';
import { mergeAll, mergeLanguage } from '../../vite/i18n-plugin.ts';
import { commandStateKey } from '../components/command-state.tsx';
import { LANGUAGES } from './languages.ts';
import { messageKey } from './messages.ts';

const localesDir = path.resolve(__dirname, 'locales');
const SEED_KEYS = [
  'NO_EVENTS',
  'NO_CONNECTIVITY_ERRORS',
  'NO_HARDWARE_ISSUES',
  'NO_PUMPS_DETECTED',
  'NO_TERMINAL_INFORMATION',
  'NO_NOTIFICATIONS',
  'SITES_OFFLINE_TOTAL',
  'FLASDRIVE_LIFE',
  'ERROR_NO_SUBJECT',
  'ERROR_NO_BODY',
  'ERROR_',
  'PUMP_NOT_FOUND',
  'TICKET_CREATED_SUCCESFULLY',
  'TERMINAL_REBOOTING_WAIT_TIL_FINISHED',
];

describe('translation catalogues', () => {
  const all = mergeAll(localesDir);

  it('en has every message key of docs/product.md, and NO_NOTIFICATIONS is "No Notifications"', () => {
    for (const key of SEED_KEYS) expect(all.en[key], key).toBeTruthy();
    expect(all.en.NO_NOTIFICATIONS).toBe('No Notifications');
  });

  it('en carries the contract messages word for word', () => {
    for (const text of [...Object.values(MESSAGES), ...Object.values(AUTH_TEXTS)]) {
      const key = messageKey(text);
      expect(key, text).toBeDefined();
      expect(all.en[key as string]).toBe(text);
    }
  });

  it('command states read as the contract names them in English, and every language names each of them', () => {
    for (const state of COMMAND_STATES) {
      const key = commandStateKey(state);
      expect(all.en[key], key).toBe(COMMAND_STATE_VIEW[state].label);
      for (const { code } of LANGUAGES) expect(all[code]?.[key], `${code} ${key}`).toBeTruthy();
    }
  });

  it('the picker lists exactly the languages that have a catalogue: English, French and Arabic', () => {
    expect(LANGUAGES.map((l) => l.code).sort()).toEqual(Object.keys(all).sort());
    expect(LANGUAGES.map((l) => l.label)).toEqual(['English', 'Français', 'العربية']);
  });

  it('every language translates every English key of every fragment, with the same {{placeholders}}', () => {
    const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    for (const { code } of LANGUAGES) {
      const catalogue = all[code] ?? {};
      expect(missingKeys(all.en, catalogue), `${code}: keys without a text`).toEqual([]);
      expect(
        Object.keys(all.en).filter(
          (key) => catalogue[key] && placeholders(catalogue[key]).join() !== placeholders(all.en[key]).join(),
        ),
        `${code}: keys whose placeholders differ from English`,
      ).toEqual([]);
    }
  });

  it('Arabic is written in Arabic, not copied from English (names and figures aside)', () => {
    // Names of products stay as they are: the app's own, and the chat services a contact point posts to.
    const same = new Set(['APP_NAME', 'FOOTER_YEAR', 'UTC_OFFSET', 'NOTIFY_KIND_SLACK', 'NOTIFY_KIND_TEAMS']);
    expect(
      Object.keys(all.en).filter((key) => !same.has(key) && !/[\u0600-\u06FF]/.test(all.ar?.[key] ?? '')),
    ).toEqual([]);
  });

  it('a language lacking a key of English is caught', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fc-i18n-'));
    for (const lang of ['en', 'ar']) mkdirSync(path.join(dir, lang));
    writeFileSync(path.join(dir, 'en', 'a.json'), JSON.stringify({ ONE: 'One', TWO: 'Two' }));
    writeFileSync(path.join(dir, 'ar', 'a.json'), JSON.stringify({ ONE: 'واحد' }));
    const merged = mergeAll(dir);
    expect(missingKeys(merged.en, merged.ar)).toEqual(['TWO']);
  });

  it('the plugin merges fragments and refuses a key with two different texts', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fc-i18n-'));
    mkdirSync(path.join(dir, 'en'));
    writeFileSync(path.join(dir, 'en', 'a.json'), JSON.stringify({ ONE: 'One', SAME: 'Same' }));
    writeFileSync(path.join(dir, 'en', 'b.json'), JSON.stringify({ TWO: 'Two', SAME: 'Same' }));
    expect(mergeLanguage(dir, 'en')).toEqual({ ONE: 'One', SAME: 'Same', TWO: 'Two' });
    writeFileSync(path.join(dir, 'en', 'c.json'), JSON.stringify({ ONE: 'Uno' }));
    expect(() => mergeLanguage(dir, 'en')).toThrow(/"ONE" has two different texts/);
  });
});

/** Keys English has that `other` leaves out or leaves blank. */
function missingKeys(en: Record<string, string>, other: Record<string, string> | undefined): string[] {
  return Object.keys(en).filter((key) => !other?.[key]?.trim());
}
