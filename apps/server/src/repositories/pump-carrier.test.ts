import { describe, expect, it } from 'vitest';
import { carrierOf, carrierSql } from './pump-carrier.ts';

describe("carrierOf: the terminal that carries a site's pumps", () => {
  it('is the pump controller, whatever its age', () => {
    expect(
      carrierOf([
        { id: 3, pumpController: false },
        { id: 7, pumpController: true },
        { id: 5, pumpController: false },
      ])?.id,
    ).toBe(7);
  });

  it('is the oldest live terminal when no controller is left', () => {
    expect(
      carrierOf([
        { id: 9, pumpController: false },
        { id: 4, pumpController: true, decommissioned: true },
        { id: 6, pumpController: false },
      ])?.id,
    ).toBe(6);
  });

  it('is none when the site has no live terminal', () => {
    expect(carrierOf([])).toBeNull();
    expect(carrierOf([{ id: 1, pumpController: true, decommissioned: true }])).toBeNull();
  });
});

describe('carrierSql', () => {
  it('orders live terminals of the site controller first, then oldest, leaving one out', () => {
    const sql = carrierSql('$1', '$2').replace(/\s+/g, ' ');
    expect(sql).toContain('c.site_id = $1 and c.decommissioned_at is null and c.id <> $2');
    expect(sql).toContain('order by c.pump_controller desc, c.id limit 1');
  });
});
