import { describe, expect, it } from 'vitest';
import { DeviceEventSchema } from './device.ts';
import {
  atLeast,
  EVENT_CATALOGUE,
  EVENT_TYPES,
  eventText,
  eventTexts,
  HARDWARE_EVENT_TYPES,
  isHardwareEvent,
  SEVERITIES,
  severityOf,
} from './events.ts';
import { eventName } from './formatters.ts';

describe('event catalogue', () => {
  it("names types 1 to 15 and the rules' 100 once each", () => {
    expect(EVENT_CATALOGUE.map((e) => e.code)).toEqual([...Array.from({ length: 15 }, (_, i) => i + 1), 100]);
    expect(EVENT_TYPES[1]?.name).toBe('Card reader failure');
    expect(EVENT_TYPES[15]?.name).toBe('Modem failure');
    expect(EVENT_TYPES[16]).toBeUndefined();
  });

  it('derives the hardware issues from the catalogue: 1, 2, 12, 13, 14, 15', () => {
    expect(HARDWARE_EVENT_TYPES).toEqual([1, 2, 12, 13, 14, 15]);
    expect(isHardwareEvent(12)).toBe(true);
    expect(isHardwareEvent(3)).toBe(false);
    expect(isHardwareEvent(500)).toBe(false);
  });

  it('gives every type a severity; an uncatalogued type is minor', () => {
    for (const e of EVENT_CATALOGUE) expect(SEVERITIES, e.name).toContain(e.severity);
    expect(severityOf(3)).toBe('critical');
    expect(severityOf(2)).toBe('minor');
    expect(severityOf(500)).toBe('minor');
    expect(atLeast('critical', 'major')).toBe(true);
    expect(atLeast('minor', 'major')).toBe(false);
    expect(atLeast('info', 'info')).toBe(true);
  });

  it("only the connectivity watchdog types and the rules' type are raised by the server", () => {
    expect(EVENT_CATALOGUE.filter((e) => e.raisedBy === 'server').map((e) => e.code)).toEqual([3, 4, 100]);
  });

  it('refuses event type 100 from a device: it is reserved for alert rules', () => {
    const r = DeviceEventSchema.safeParse({ event_type: 100, text: 'Rule: forged' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['event_type']);
    expect(DeviceEventSchema.safeParse({ event_type: 100, clear: true }).success).toBe(false);
  });

  it('writes texts as "{name}: {details}", which a device may send and whose issue is the name', () => {
    expect(eventText(2, 'paper jam')).toBe('Printer failure: paper jam');
    expect(() => eventText(999, 'x')).toThrow(/999/);
    for (const { code, name } of EVENT_CATALOGUE.filter((e) => e.code !== 100)) {
      const texts = eventTexts(code);
      expect(texts.length, name).toBeGreaterThan(0);
      for (const text of texts) {
        expect(eventName(text)).toBe(name);
        expect(DeviceEventSchema.safeParse({ event_type: code, text }).success).toBe(true);
      }
    }
    expect(eventTexts(999)).toEqual([]);
  });
});
