import { describe, expect, it } from 'vitest';
import {
  AlertRuleCreateSchema,
  clearThresholdFits,
  meets,
  noSalesAlertText,
  type RuleState,
  ruleAlertText,
  stepRule,
} from './alert-rules.ts';

const idle: RuleState = { pendingSince: null, firing: false, lastAt: null };
const run = (rule: Parameters<typeof stepRule>[0], readings: Array<[number, number]>) => {
  let state = idle;
  const steps: string[] = [];
  for (const [at, value] of readings) {
    const next = stepRule(rule, state, { at: at * 1000, value });
    state = next.state;
    steps.push(next.step.kind);
  }
  return { state, steps };
};

describe('alert rule evaluation', () => {
  it('compares with each op', () => {
    expect([
      meets('<', 1, 2),
      meets('<', 2, 2),
      meets('<=', 2, 2),
      meets('>', 3, 2),
      meets('>=', 2, 2),
    ]).toEqual([true, false, true, true, true]);
    expect(clearThresholdFits('<', 20, 25)).toBe(true);
    expect(clearThresholdFits('<', 20, 15)).toBe(false);
    expect(clearThresholdFits('>=', 50, 45)).toBe(true);
    expect(clearThresholdFits('>=', 50, 55)).toBe(false);
  });

  it('fires at the first reading with for_s 0, holds through the hysteresis band, clears at clear_threshold', () => {
    const rule = { op: '<' as const, threshold: 20, for_s: 0, clear_threshold: 25 };
    expect(
      run(rule, [
        [0, 30],
        [1, 15],
        [2, 22],
        [3, 10],
        [4, 25],
        [5, 19],
      ]).steps,
    ).toEqual(['none', 'fire', 'none', 'none', 'clear', 'fire']);
  });

  it('without clear_threshold clears at the first reading not meeting the threshold', () => {
    const rule = { op: '>' as const, threshold: 50, for_s: 0, clear_threshold: null };
    expect(
      run(rule, [
        [0, 51],
        [1, 50.5],
        [2, 50],
      ]).steps,
    ).toEqual(['fire', 'none', 'clear']);
  });

  it('for_s: the condition must hold that long without a break', () => {
    const rule = { op: '>=' as const, threshold: 80, for_s: 60, clear_threshold: null };
    expect(
      run(rule, [
        [0, 85],
        [30, 90],
        [59, 81],
        [60, 80],
      ]).steps,
    ).toEqual(['none', 'none', 'none', 'fire']);
    expect(
      run(rule, [
        [0, 85],
        [30, 70],
        [60, 85],
        [100, 85],
        [120, 85],
      ]).steps,
    ).toEqual(['none', 'none', 'none', 'none', 'fire']);
  });

  it('ignores a reading older than the newest one seen', () => {
    const rule = { op: '<' as const, threshold: 20, for_s: 0, clear_threshold: null };
    const { state, steps } = run(rule, [
      [10, 50],
      [5, 1],
    ]);
    expect(steps).toEqual(['none', 'none']);
    expect(state).toEqual({ pendingSince: null, firing: false, lastAt: 10_000 });
  });

  it('writes the alert texts', () => {
    expect(ruleAlertText({ name: 'Battery low', signal: 'battery_life', op: '<', threshold: 20 }, 15)).toBe(
      'Battery low: battery_life 15 < 20',
    );
    expect(
      ruleAlertText({ name: 'Hot', signal: 'temperature_main_board', op: '>', threshold: 70.5 }, 71.234),
    ).toBe('Hot: temperature_main_board 71.23 > 70.5');
    expect(noSalesAlertText('Pump idle', 95.7, 4.25)).toBe('Pump idle: no sales for 95 min, usually 4.25/h');
  });

  it('names every bad field of a rule', () => {
    const r = AlertRuleCreateSchema.safeParse({
      name: 'x',
      target: { scope: { kind: 'site', id: 1 } },
      signal: 'battery_life',
      op: '<',
      threshold: 20,
      clear_threshold: 10,
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['clear_threshold']);
    const many = AlertRuleCreateSchema.safeParse({
      name: '',
      signal: 'x',
      op: '!',
      threshold: 'y',
      for_s: -1,
    });
    expect(many.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'for_s',
      'name',
      'op',
      'signal',
      'target',
      'threshold',
    ]);
  });
});
