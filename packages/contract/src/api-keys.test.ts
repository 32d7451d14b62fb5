import { describe, expect, it } from 'vitest';
import { API_KEY_TEXTS, ApiKeyCreateSchema, isApiKeyToken } from './api-keys.ts';

describe('API keys', () => {
  it('tells a key from a session token', () => {
    expect(isApiKeyToken(`fck_${'a'.repeat(43)}`)).toBe(true);
    expect(isApiKeyToken(`fck_${'a'.repeat(42)}`)).toBe(false);
    expect(isApiKeyToken('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).toBe(false);
    expect(isApiKeyToken(`fcd_${'a'.repeat(43)}`)).toBe(false);
  });

  it('reads a creation: name trimmed, read_only false and no expiry by default', () => {
    expect(ApiKeyCreateSchema.parse({ name: '  Stock  ' })).toEqual({
      name: 'Stock',
      read_only: false,
      expires_at: null,
    });
  });

  it('names each bad field', () => {
    const issues = (body: unknown) =>
      ApiKeyCreateSchema.safeParse(body).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ name: '' })).toEqual([['name', API_KEY_TEXTS.name]]);
    expect(issues({ name: 'ok', expires_at: '2020-01-01T00:00:00Z' })).toEqual([
      ['expires_at', API_KEY_TEXTS.expiresPast],
    ]);
    expect(issues({ name: 'ok', expires_at: '2027-13-01' })).toEqual([
      ['expires_at', API_KEY_TEXTS.expiresAt],
    ]);
    expect(issues({ name: 'ok', read_only: 1 })).toEqual([['read_only', API_KEY_TEXTS.readOnly]]);
  });
});
