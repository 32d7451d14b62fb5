import { DeviceEventSchema, DeviceTransactionSchema, TelemetryPointSchema } from '@forecourt/contract/device';
import { EVENT_TYPES, isHardwareEvent } from '@forecourt/contract/events';
import { createRandom } from '@forecourt/contract/random';
import { describe, expect, it } from 'vitest';
import {
  initialSensors,
  makeEvent,
  makeTransaction,
  sampleTelemetry,
  shockReading,
  trafficFactor,
  UNDER_ONE_LITRE_SHARE,
  ZERO_AMOUNT_SHARE,
} from './model.ts';

const at = (h: number, m = 0) => new Date(Date.UTC(2024, 4, 1, h, m));

describe('daily traffic curve', () => {
  it('is quiet at night, busy at the morning and evening peaks, and has no jumps', () => {
    expect(trafficFactor(at(3))).toBeLessThan(0.15);
    expect(trafficFactor(at(8))).toBe(1);
    expect(trafficFactor(at(17))).toBe(1);
    for (let m = 0; m < 24 * 60; m += 5) {
      const a = trafficFactor(at(0, m));
      const b = trafficFactor(at(0, m + 5));
      expect(Math.abs(a - b)).toBeLessThan(0.05);
    }
  });
});

describe('transactions', () => {
  it('are valid device transactions with some zero-amount and some under one litre', () => {
    const rnd = createRandom(7);
    const txs = Array.from({ length: 5000 }, () => makeTransaction(rnd, at(12)));
    for (const tx of txs) DeviceTransactionSchema.parse(tx);
    const zero = txs.filter((t) => t.amount === 0).length / txs.length;
    const small = txs.filter((t) => t.volume_l < 1).length / txs.length;
    expect(zero).toBeGreaterThan(ZERO_AMOUNT_SHARE / 2);
    expect(zero).toBeLessThan(ZERO_AMOUNT_SHARE * 2);
    expect(small).toBeGreaterThan(UNDER_ONE_LITRE_SHARE / 2);
    expect(small).toBeLessThan(UNDER_ONE_LITRE_SHARE * 2);
    const typical = txs
      .filter((t) => t.volume_l >= 1)
      .map((t) => t.volume_l)
      .sort((a, b) => a - b);
    expect(typical[Math.floor(typical.length / 2)]).toBeGreaterThan(15);
    expect(typical[Math.floor(typical.length / 2)]).toBeLessThan(60);
  });
});

describe('telemetry', () => {
  it('drifts gradually and always stays inside the device API ranges', () => {
    const rnd = createRandom(11);
    const s = initialSensors(rnd);
    let prev = sampleTelemetry(s, rnd, at(0), 60_000);
    for (let i = 1; i < 14 * 24 * 60; i++) {
      const p = sampleTelemetry(s, rnd, new Date(at(0).getTime() + i * 60_000), 60_000);
      TelemetryPointSchema.parse(p);
      expect(Math.abs(p.battery_life! - prev.battery_life!)).toBeLessThan(1);
      expect(Math.abs(p.humidity_inside_cabinet! - prev.humidity_inside_cabinet!)).toBeLessThan(6);
      prev = p;
    }
  });

  it('is warmer in the afternoon than before dawn', () => {
    const rnd = createRandom(3);
    const s = initialSensors(rnd);
    const mean = (h: number) => {
      let sum = 0;
      for (let i = 0; i < 50; i++) sum += sampleTelemetry(s, rnd, at(h), 1000).temperature_inside_cabinet!;
      return sum / 50;
    };
    expect(mean(15)).toBeGreaterThan(mean(4) + 5);
  });
});

describe('events and shocks', () => {
  it('raises catalogued events, mostly hardware issues, named as the catalogue names them', () => {
    const rnd = createRandom(5);
    const events = Array.from({ length: 600 }, () => makeEvent(rnd, at(10)));
    for (const e of events) {
      DeviceEventSchema.parse(e);
      expect(e.text.split(':')[0]).toBe(EVENT_TYPES[e.event_type]?.name);
    }
    const hardware = events.filter((e) => isHardwareEvent(e.event_type)).length;
    expect(hardware / events.length).toBeGreaterThan(0.55);
    expect(hardware / events.length).toBeLessThan(0.8);
  });

  it('reads shocks within the API range', () => {
    const rnd = createRandom(9);
    for (let i = 0; i < 1000; i++) {
      const r = shockReading(rnd);
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThanOrEqual(1000);
    }
  });
});
