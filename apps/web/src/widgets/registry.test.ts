import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BOARDS } from '../lib/widget-descriptor.ts';
import { boardLayout, WIDGETS } from './registry.ts';

const locales = path.join(path.dirname(fileURLToPath(import.meta.url)), '../i18n/locales');
const keysOf = (lang: string) =>
  Object.assign(
    {},
    ...readdirSync(path.join(locales, lang)).map((f) =>
      JSON.parse(readFileSync(path.join(locales, lang, f), 'utf8')),
    ),
  ) as Record<string, string>;

const ids = (board: (typeof BOARDS)[number]) => boardLayout(board).map((cell) => cell.widget.id);

/** The widgets of `board` among `known`, in their order (a widget added later does not change this test). */
const inOrder = (board: (typeof BOARDS)[number], known: string[]) =>
  ids(board).filter((id) => known.includes(id));

describe('widget descriptors', () => {
  it('lay out the three dashboards in their order', () => {
    const fleet = [
      'company-map',
      'sites-online',
      'local-time',
      'alerts',
      'connectivity',
      'hardware-issues',
      'shock',
      'weather',
      'terminal-reboot',
      'support',
    ];
    expect(inOrder('agent', fleet)).toEqual(fleet);
    expect(inOrder('company', fleet)).toEqual(fleet);
    const site = [
      'aerial-map',
      'pump-activation',
      'pump-status',
      'terminal-battery',
      'flash-drive',
      'board-temperature',
      'humidity',
      'internal-temperature',
      'alerts',
      'hardware-issues',
      'shock',
      'transaction-activity',
      'weather',
      'terminal-reboot',
      'support',
    ];
    expect(inOrder('site', site)).toEqual(site);
  });

  it('have unique ids, a title in every language and no two widgets in one place', () => {
    expect(new Set(WIDGETS.map((w) => w.id)).size).toBe(WIDGETS.length);
    for (const lang of ['en', 'fr', 'ar']) {
      const keys = keysOf(lang);
      for (const w of WIDGETS) expect(keys[w.title], `${lang} ${w.title}`).toBeTruthy();
    }
    for (const board of BOARDS) {
      const orders = boardLayout(board).map((c) => c.place.order);
      expect(new Set(orders).size).toBe(orders.length);
    }
  });

  it("load their component, and a first view's widget names the reads it paints with", async () => {
    for (const widget of WIDGETS) {
      const module = await widget.load();
      expect(typeof module.Widget, widget.id).toBe('function');
    }
    const map = WIDGETS.find((w) => w.id === 'company-map');
    const reads = (await map?.load())?.firstReads?.({ kind: 'agent', id: 7 }) ?? [];
    expect(reads.map((r) => r.queryKey)).toEqual([
      ['map-terminals', 'agent', 7],
      ['config', 'web'],
    ]);
  }, 60_000);
});
