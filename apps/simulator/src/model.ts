import type { DeviceEvent, DeviceTransaction, TelemetryPoint } from '@forecourt/contract/device';
import type { Random } from './random.ts';

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

/** Hardware issues are 1, 2, 12, 13, 14, 15; the rest are operational events. Text: '{name}: {details}'. */
export const EVENT_TEXTS: Record<number, readonly string[]> = {
  1: ['Card reader failure: reader not responding', 'Card reader failure: chip read error'],
  2: ['Printer failure: paper out', 'Printer failure: paper jam'],
  6: ['Tank low level: diesel below 10%', 'Tank low level: unleaded below 15%'],
  7: ['Door opened: cabinet door opened', 'Door opened: service panel opened'],
  8: ['Transaction declined burst: 5 declines in 10 minutes'],
  9: ['Software update: version 4.2.2 installed'],
  12: ['Keypad failure: key stuck', 'Keypad failure: PIN pad not responding'],
  13: ['Display failure: screen blank', 'Display failure: backlight fault'],
  14: ['Power supply failure: mains lost, running on battery', 'Power supply failure: voltage out of range'],
  15: ['Modem failure: no carrier', 'Modem failure: SIM not detected'],
};
export const HARDWARE_TYPES = [1, 2, 12, 13, 14, 15] as const;
const OTHER_TYPES = [6, 7, 8, 9] as const;

/** An occasional event: hardware issues two times in three. */
export function makeEvent(rnd: Random, at: Date): DeviceEvent {
  const type = rnd.chance(2 / 3) ? rnd.pick(HARDWARE_TYPES) : rnd.pick(OTHER_TYPES);
  return { event_type: type, text: rnd.pick(EVENT_TEXTS[type]!), at: at.toISOString() };
}

/** A shock reading: mostly small knocks, sometimes a real impact. */
export function shockReading(rnd: Random): number {
  return Math.round((rnd.chance(0.85) ? rnd.between(0.5, 6) : rnd.between(6, 40)) * 10) / 10;
}

/** Pump status codes (4000 normal) with their texts, and how often a routine report is not normal. */
export const PUMP_STATUS_TEXTS: Record<number, string> = {
  4000: 'Normal operation',
  4001: 'Nozzle left out of holster',
  4002: 'Flow meter pulse error',
  4003: 'Emergency stop pressed',
  4004: 'Communication with pump lost',
};
export function routinePumpCode(rnd: Random): number {
  return rnd.chance(0.93) ? 4000 : rnd.pick([4001, 4002, 4003, 4004]);
}
