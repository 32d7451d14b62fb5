import { describe, expect, it } from 'vitest';
import { createLoginLimiter } from './login-limiter.ts';

describe('login limiter', () => {
  it('blocks a key after maxFailures within the window, until the window ends', () => {
    const limiter = createLoginLimiter({ maxFailures: 3, windowMs: 1000 });
    for (let i = 0; i < 3; i++) {
      expect(limiter.blockedFor('bob', 100)).toBe(0);
      limiter.fail('bob', 100);
    }
    expect(limiter.blockedFor('bob', 600)).toBe(500);
    expect(limiter.blockedFor('alice', 600)).toBe(0);
    expect(limiter.blockedFor('bob', 1100)).toBe(0);
  });

  it('forgets the failures of a key on success', () => {
    const limiter = createLoginLimiter({ maxFailures: 2, windowMs: 1000 });
    limiter.fail('bob', 0);
    limiter.succeed('bob');
    limiter.fail('bob', 0);
    expect(limiter.blockedFor('bob', 0)).toBe(0);
  });

  it('stays bounded in memory', () => {
    const limiter = createLoginLimiter({ maxFailures: 1, windowMs: 60_000, maxKeys: 10 });
    for (let i = 0; i < 100; i++) limiter.fail(`user${i}`, 0);
    expect(limiter.blockedFor('user99', 1)).toBeGreaterThan(0);
    expect(limiter.blockedFor('user0', 1)).toBe(0);
  });
});
