import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('every language of the picker translates every key of the shell and message fragments', () => {
    const own = [
      ...Object.keys(readJson(path.join(localesDir, 'en', 'shell.json'))),
      ...Object.keys(readJson(path.join(localesDir, 'en', 'messages.json'))),
    ];
    for (const { code } of LANGUAGES) {
      expect(
        own.filter((key) => !all[code]?.[key]),
        code,
      ).toEqual([]);
    }
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

function readJson(file: string): Record<string, string> {
  return JSON.parse(readFileSync(file, 'utf8'));
}
