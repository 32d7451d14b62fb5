import { describe, expect, it } from 'vitest';
import { DomainError } from './domain-errors.ts';
import {
  blockedByChildren,
  isOwnLive,
  noCarrier,
  ownLive,
  patched,
  pumpChildren,
  unchanged,
} from './fleet-rules.ts';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return { kind: err.kind, errors: err.errors };
    throw err;
  }
  return null;
};

describe('ownLive: a row the agent may administer', () => {
  const row = { id: 4, agent_id: 1, decommissioned_at: null };
  it('is a live row of its own', () => {
    expect(ownLive(row, 1, 'site', 4)).toBe(row);
  });
  it('unknown or decommissioned is not found, naming the entity', () => {
    expect(refusal(() => ownLive(null, 1, 'site', 4))).toEqual({
      kind: 'not_found',
      errors: ['No site with id 4.'],
    });
    expect(refusal(() => ownLive({ ...row, decommissioned_at: new Date() }, 1, 'pump', 4))).toEqual({
      kind: 'not_found',
      errors: ['No pump with id 4.'],
    });
  });
  it("another agent's is forbidden", () => {
    expect(refusal(() => ownLive(row, 2, 'site', 4))).toEqual({
      kind: 'forbidden',
      errors: ['You do not have permission to access this resource.'],
    });
  });
  it('as a reference (isOwnLive) only a live row of its own will do', () => {
    expect(isOwnLive(row, 1)).toBe(true);
    expect(isOwnLive(row, 2)).toBe(false);
    expect(isOwnLive(null, 1)).toBe(false);
    expect(isOwnLive({ ...row, decommissioned_at: new Date() }, 1)).toBe(false);
  });
});

describe('blockedByChildren: no decommissioning while live children remain', () => {
  it('lets a place without children go', () => {
    expect(blockedByChildren('Site 3', [])).toBeNull();
  });
  it('names the children in a conflict', () => {
    const err = blockedByChildren('Site 3', pumpChildren([{ id: 11, pump_no: 2 }]));
    expect(err?.kind).toBe('conflict');
    expect(err?.errors).toEqual(['Site 3 still has live children: pump 11 pump 2. Decommission them first.']);
    expect(err?.children).toEqual([{ entity: 'pump', id: 11, label: 'pump 2' }]);
  });
  it('names 20 and counts the rest', () => {
    const pumps = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, pump_no: i + 1 }));
    const err = blockedByChildren('Site 3', pumpChildren(pumps));
    expect(err?.errors[0]).toMatch(/pump 20 pump 20 and 3 more\. Decommission them first\.$/);
    expect(err?.children).toHaveLength(23);
  });
});

describe('noCarrier: pumps need a terminal to carry their commands', () => {
  it('is a conflict naming the site', () => {
    expect(noCarrier(8).kind).toBe('conflict');
    expect(noCarrier(8).errors).toEqual([
      'Site 8 has no terminal to carry pump commands: create a terminal first.',
    ]);
  });
});

describe('patched and unchanged: a change over the current fields', () => {
  it('keeps the fields a change leaves out', () => {
    const before = { id: 1, title: 'A', lat: 1 as number | null };
    expect(patched(before, { title: 'B', lat: undefined })).toEqual({ id: 1, title: 'B', lat: 1 });
    expect(patched(before, { lat: null })).toEqual({ id: 1, title: 'A', lat: null });
  });
  it('tells an empty change', () => {
    expect(unchanged({ a: 1 }, patched({ a: 1 }, {}))).toBe(true);
    expect(unchanged({ a: 1 }, { a: 2 })).toBe(false);
  });
});
