import { describe, expect, it } from 'vitest';
import {
  asMarkerColor,
  cycleIndex,
  levelColor,
  levelImage,
  markerColor,
  pumpClickAction,
  pumpState,
  startIndex,
} from './rules.ts';

describe('pump state machine (docs/product.md#pump-state-machine)', () => {
  it('maps status and last_synapse_status to a state', () => {
    expect(pumpState(0, 0)).toBe('off');
    expect(pumpState(1, 1)).toBe('on');
    expect(pumpState(1, 0)).toBe('pending_on');
    expect(pumpState(0, 1)).toBe('pending_off');
  });
  it('a click turns off→on, on→off, and does nothing while pending', () => {
    expect(pumpClickAction(0, 0)).toBe('on');
    expect(pumpClickAction(1, 1)).toBe('off');
    expect(pumpClickAction(1, 0)).toBeNull();
    expect(pumpClickAction(0, 1)).toBeNull();
  });
});

describe('battery and flash-drive thresholds 90/75/50/6/5', () => {
  it.each([
    [100, 'full'],
    [90.5, 'full'],
    [90, null],
    [89.9, 'three-quarters'],
    [75, 'three-quarters'],
    [74.9, 'half'],
    [50, 'half'],
    [49.9, 'quarter'],
    [6, 'quarter'],
    [5.5, null],
    [5, null],
    [4.9, 'empty'],
    [0, 'empty'],
  ])('%s%% → %s image', (pct, image) => {
    expect(levelImage(pct)).toBe(image);
  });
  it.each([
    [95, 'green'],
    [89, 'yellow'],
    [75, 'yellow'],
    [74, 'orange'],
    [50, 'orange'],
    [49, 'red'],
    [0, 'red'],
  ])('%s%% → %s text', (pct, color) => {
    expect(levelColor(pct)).toBe(color);
  });
});

describe('markers and carousels', () => {
  it('marker colour: on green, off red, anything else yellow', () => {
    expect(markerColor('on')).toBe('green');
    expect(markerColor('off')).toBe('red');
    expect(markerColor('unknown')).toBe('yellow');
    expect(markerColor(undefined)).toBe('yellow');
  });
  it('a marker colour from an answer is trusted only when it is one of the three', () => {
    expect(asMarkerColor('red')).toBe('red');
    expect(asMarkerColor('purple')).toBe('yellow');
    expect(asMarkerColor(null)).toBe('yellow');
  });
  it('next and previous wrap around', () => {
    expect(cycleIndex(2, 1, 3)).toBe(0);
    expect(cycleIndex(0, -1, 3)).toBe(2);
    expect(cycleIndex(0, 1, 0)).toBe(0);
  });
  it('start is the first zone, or pos modulo count when pos > 0', () => {
    expect(startIndex(0, 4)).toBe(0);
    expect(startIndex(5, 4)).toBe(1);
    expect(startIndex(-1, 4)).toBe(0);
    expect(startIndex(3, 0)).toBe(0);
  });
});
