import { describe, expect, it } from 'vitest';
import { DevicePumpStatusSchema } from './device.ts';
import {
  ABNORMAL_PUMP_STATUS_CODES,
  isPumpStatusNormal,
  PUMP_STATUS_CODES,
  PUMP_STATUS_NORMAL,
  pumpStatusText,
} from './pumps.ts';

describe('pump status codes', () => {
  it('4000 is normal operation, every other code is abnormal', () => {
    expect(PUMP_STATUS_NORMAL).toBe(4000);
    expect(pumpStatusText(4000)).toBe('Normal operation');
    expect(isPumpStatusNormal(4000)).toBe(true);
    expect(isPumpStatusNormal(4003)).toBe(false);
    expect(isPumpStatusNormal(undefined)).toBe(false);
    expect(ABNORMAL_PUMP_STATUS_CODES).not.toContain(4000);
    expect(ABNORMAL_PUMP_STATUS_CODES.length).toBe(PUMP_STATUS_CODES.length - 1);
  });

  it('names an unknown code by its number', () => {
    expect(pumpStatusText(4999)).toBe('Status 4999');
  });

  it('every known code and text is a report the device API accepts', () => {
    for (const code of PUMP_STATUS_CODES) {
      const report = { pump_no: 1, status: 1, code, text: pumpStatusText(code) };
      expect(DevicePumpStatusSchema.safeParse(report).success, String(code)).toBe(true);
    }
  });
});
