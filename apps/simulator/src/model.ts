import type { DeviceEvent, DeviceTransaction, TelemetryPoint } from '@forecourt/contract/device';
import { eventTexts, HARDWARE_EVENT_TYPES } from '@forecourt/contract/events';
import { ABNORMAL_PUMP_STATUS_CODES, PUMP_STATUS_NORMAL } from '@forecourt/contract/pumps';
import type { Random } from '@forecourt/contract/random';

/** Relative forecourt traffic by local hour (0–23): quiet nights, morning and evening peaks. */
export const DAILY_CURVE = [
  0.15, 0.1, 0.08, 0.08, 0.1, 0.2, 0.5, 0.9, 1, 0.85, 0.75, 0.8, 0.9, 0.85, 0.8, 0.85, 0.95, 1, 0.85, 0.65,
  0.5, 0.4, 0.3, 0.2,
] as const;

/** Traffic factor at a moment, interpolated between hours so the rate has no steps. */
export function trafficFactor(at: Date): number {
  const h = at.getUTCHours() + at.getUTCMinutes() / 60;
  const i = Math.floor(h) % 24;
  const frac = h - Math.floor(h);
  return DAILY_CURVE[i] * (1 - frac) + DAILY_CURVE[(i + 1) % 24] * frac;
}

export const PRICE_PER_LITRE = 1.46;
/** Shares of transactions that are zero-value (declined, test) and under one litre (topped-up cans). */
export const ZERO_AMOUNT_SHARE = 0.04;
export const UNDER_ONE_LITRE_SHARE = 0.06;

/** One fuel sale: mostly 20–60 l; some zero-amount, some under one litre. */
export function makeTransaction(rnd: Random, at: Date): DeviceTransaction {
  const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;
  let volume: number;
  if (rnd.chance(UNDER_ONE_LITRE_SHARE)) volume = rnd.between(0.05, 0.99);
  else volume = Math.min(150, Math.max(1, Math.exp(3.4 + 0.45 * rnd.gauss())));
  volume = round(volume, 3);
  const amount = rnd.chance(ZERO_AMOUNT_SHARE) ? 0 : round(volume * PRICE_PER_LITRE, 2);
  return { at: at.toISOString(), volume_l: volume, amount };
}

/** The slowly changing state of a terminal's sensors. */
export interface SensorState {
  battery: number;
  flash: number;
  boardBase: number;
  humidity: number;
  charging: boolean;
}

export function initialSensors(rnd: Random): SensorState {
  return {
    battery: rnd.between(55, 100),
    flash: rnd.between(30, 98),
    boardBase: rnd.between(34, 44),
    humidity: rnd.between(30, 60),
    charging: rnd.chance(0.3),
  };
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
const r1 = (v: number) => Math.round(v * 10) / 10;

/**
 * One reading, `dtMs` after the previous: the battery drains or charges a little, the flash drive fills very
 * slowly, temperatures follow the time of day, humidity wanders. Everything stays inside the API's ranges.
 */
export function sampleTelemetry(s: SensorState, rnd: Random, at: Date, dtMs: number): TelemetryPoint {
  const hours = dtMs / 3_600_000;
  if (s.charging) {
    s.battery += hours * rnd.between(4, 12);
    if (s.battery >= 99.5) s.charging = false;
  } else {
    s.battery -= hours * rnd.between(0.2, 1.5);
    if (s.battery < 20 && rnd.chance(0.5)) s.charging = true;
  }
  s.battery = clamp(s.battery, 1, 100);
  s.flash = clamp(s.flash - hours * rnd.between(0, 0.3), 0, 100);
  if (s.flash < 3) s.flash = rnd.between(80, 98); // log rotation
  const dayHeat = Math.sin(((at.getUTCHours() + at.getUTCMinutes() / 60 - 9) / 24) * 2 * Math.PI);
  const board = clamp(s.boardBase + 6 * dayHeat + rnd.gauss() * 0.6, -60, 150);
  const cabinet = clamp(12 + 8 * dayHeat + rnd.gauss() * 0.5, -60, 150);
  s.humidity = clamp(s.humidity + rnd.gauss() * 0.8 - (s.humidity - 45) * 0.01, 5, 95);
  return {
    at: at.toISOString(),
    battery_life: r1(s.battery),
    flash_left: r1(s.flash),
    temperature_main_board: r1(board),
    temperature_inside_cabinet: r1(cabinet),
    humidity_inside_cabinet: r1(s.humidity),
  };
}

/** Operational events a terminal raises now and then (the others come with what they report). */
const OTHER_TYPES = [6, 7, 8, 9] as const;

/** An occasional event: hardware issues two times in three. */
export function makeEvent(rnd: Random, at: Date): DeviceEvent & { text: string } {
  const type = rnd.chance(2 / 3) ? rnd.pick(HARDWARE_EVENT_TYPES) : rnd.pick(OTHER_TYPES);
  return { event_type: type, text: rnd.pick(eventTexts(type)), at: at.toISOString() };
}

/** A shock reading: mostly small knocks, sometimes a real impact. */
export function shockReading(rnd: Random): number {
  return Math.round((rnd.chance(0.85) ? rnd.between(0.5, 6) : rnd.between(6, 40)) * 10) / 10;
}

/** The status code of a routine pump report: normal, now and then one of the abnormal codes. */
export function routinePumpCode(rnd: Random): number {
  return rnd.chance(0.93) ? PUMP_STATUS_NORMAL : rnd.pick(ABNORMAL_PUMP_STATUS_CODES);
}
