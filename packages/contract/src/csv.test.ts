import { describe, expect, it } from 'vitest';
import { neutraliseCsvCell } from './csv.ts';

describe('neutraliseCsvCell', () => {
  it('prefixes a single quote to cells a spreadsheet would run as a formula', () => {
    expect(neutraliseCsvCell('=HYPERLINK("http://evil.example","click")')).toBe(
      `'=HYPERLINK("http://evil.example","click")`,
    );
    expect(neutraliseCsvCell('+1+2')).toBe(`'+1+2`);
    expect(neutraliseCsvCell("-2+3+cmd|' /C calc'!A0")).toBe(`'-2+3+cmd|' /C calc'!A0`);
    expect(neutraliseCsvCell('@SUM(A1:A9)')).toBe(`'@SUM(A1:A9)`);
    expect(neutraliseCsvCell('\t=1+1')).toBe(`'\t=1+1`);
    expect(neutraliseCsvCell('\r=1+1')).toBe(`'\r=1+1`);
  });

  it('leaves every other text as it is', () => {
    for (const text of ['', 'Paper jam', 'a=b', ' =1', "'quoted", 'Temp -5 °C', '2026-11-24T10:00:00.000Z']) {
      expect(neutraliseCsvCell(text)).toBe(text);
    }
  });
});
