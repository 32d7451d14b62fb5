import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('stores an argon2id hash with its own salt, never the password', async () => {
    const a = await hashPassword('demo1234');
    const b = await hashPassword('demo1234');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toContain('demo1234');
    expect(a).not.toBe(b);
  });

  it('accepts the right password only', async () => {
    const stored = await hashPassword('demo1234');
    expect(await verifyPassword(stored, 'demo1234')).toBe(true);
    expect(await verifyPassword(stored, 'demo12345')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('refuses everything for an unknown user or a damaged hash', async () => {
    expect(await verifyPassword(null, 'demo1234')).toBe(false);
    expect(await verifyPassword(undefined, '')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'demo1234')).toBe(false);
  });
});
