import { defineConfig } from 'vitest/config';

const base = {
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  globalSetup: ['./test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  maxWorkers: 2,
};

/**
 * Two projects: the suite on PGlite, and the same suite on PostgreSQL when one is reachable
 * (DATABASE_URL or 127.0.0.1:5432); global-setup decides and tells the files through env.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { ...base, name: 'pglite', env: { FC_TEST_DB: 'pglite' } } },
      { test: { ...base, name: 'postgres', env: { FC_TEST_DB: 'postgres' } } },
    ],
  },
});
