import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { splitTagCell, TargetSchema, tagListField, uniqueTags } from './targets.ts';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : (r.error?.issues.map((i) => i.message) ?? []);

describe('tags', () => {
  const field = z.object({ tags: tagListField() });
  it('lowercases, trims and keeps each tag once, in the order given', () => {
    expect(field.parse({ tags: [' Canary', 'model-X.1', 'canary', 'a_b'] }).tags).toEqual([
      'canary',
      'model-x.1',
      'a_b',
    ]);
    expect(uniqueTags(['B', 'b', 'a'])).toEqual(['b', 'a']);
  });
  it('refuses labels outside a-z 0-9 - _ . of 1–32 characters, and more than 20, naming tags', () => {
    for (const bad of [['two words'], ['é'], [''], ['x'.repeat(33)], [3], ['a/b']]) {
      const m = messages(field.safeParse({ tags: bad }));
      expect(m.length, JSON.stringify(bad)).toBe(1);
      expect(m[0]).toMatch(/^tags: ".*" is not a tag \(1–32 characters of a-z 0-9 - _ \.\)$/);
    }
    expect(messages(field.safeParse({ tags: 'canary' }))[0]).toMatch(/^tags must be a list of tags/);
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    expect(messages(field.safeParse({ tags: many }))).toEqual(['tags may hold at most 20 tags']);
    expect(field.safeParse({ tags: [...many.slice(0, 20), 'T1'] }).success).toBe(true);
    expect(field.safeParse({ tags: ['x'.repeat(32)] }).success).toBe(true);
  });
  it('reads a CSV cell: ;-separated, blanks ignored', () => {
    expect(splitTagCell(' a ; b;;c ')).toEqual(['a', 'b', 'c']);
    expect(splitTagCell('')).toEqual([]);
  });
});

describe('target', () => {
  it('defaults tags to none and lowercases them', () => {
    expect(TargetSchema.parse({ scope: { kind: 'site', id: 3 } })).toEqual({
      scope: { kind: 'site', id: 3 },
      tags: [],
    });
    expect(TargetSchema.parse({ scope: { kind: 'agent', id: 1 }, tags: ['Canary'] }).tags).toEqual([
      'canary',
    ]);
  });
  it('names target and the bad part', () => {
    const cases: [unknown, string][] = [
      [undefined, 'target must be an object {scope: {kind, id}, tags}'],
      [{}, 'target.scope must be an object {kind, id}'],
      [
        { scope: { kind: 'fleet', id: 1 } },
        "target.scope.kind must be 'agent', 'company', 'site' or 'terminal'",
      ],
      [{ scope: { kind: 'site', id: 0 } }, 'target.scope.id must be a numeric id'],
      [{ scope: { kind: 'site' } }, 'target.scope.id must be a numeric id'],
      [
        { scope: { kind: 'site', id: 1 }, tags: ['a b'] },
        'target.tags: "a b" is not a tag (1–32 characters of a-z 0-9 - _ .)',
      ],
      [{ scope: { kind: 'site', id: 1 }, extra: 1 }, 'target: unknown field extra'],
    ];
    for (const [value, message] of cases) {
      expect(messages(TargetSchema.safeParse(value)), JSON.stringify(value)).toContain(message);
    }
  });
});
