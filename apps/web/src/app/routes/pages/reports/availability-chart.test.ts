import { describe, expect, it } from 'vitest';
import { shortLabel } from './availability-chart.tsx';

describe('the availability chart axis labels', () => {
  it('keeps a short site name whole', () => {
    expect(shortLabel('Derby Ashbourne Road')).toBe('Derby Ashbourne Road');
  });

  it('shortens a long site name to 22 characters with an ellipsis', () => {
    const short = shortLabel('Northampton Harborough Road');
    expect(short).toBe('Northampton Harboroug…');
    expect(short.length).toBeLessThanOrEqual(22);
  });
});
