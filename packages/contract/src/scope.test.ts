import { describe, expect, it } from 'vitest';
import { SCOPE_KINDS, ScopeKindSchema } from './scope.ts';

describe('scope kinds', () => {
  it('are agent, company and site', () => {
    expect(SCOPE_KINDS).toEqual(['agent', 'company', 'site']);
  });

  it('parse a known kind and refuse anything else', () => {
    expect(ScopeKindSchema.parse('company')).toBe('company');
    expect(ScopeKindSchema.safeParse('terminal').success).toBe(false);
  });
});
