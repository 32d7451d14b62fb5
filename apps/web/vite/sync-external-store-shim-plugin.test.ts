import { createRequire } from 'node:module';
import { useSyncExternalStore } from 'react';
import { describe, expect, it } from 'vitest';
import { syncExternalStoreShimPlugin } from './sync-external-store-shim-plugin.ts';

const plugin = syncExternalStoreShimPlugin();
const resolveId = plugin.resolveId as (source: string) => string | null;
const load = plugin.load as (id: string) => string | null;

describe('syncExternalStoreShimPlugin', () => {
  it("resolves the shim to a module that re-exports React's hook, and nothing else", () => {
    const id = resolveId('use-sync-external-store/shim');
    expect(id).toMatch(/^\0/);
    expect(load(id as string)).toBe("export { useSyncExternalStore } from 'react';\n");
    expect(resolveId('use-sync-external-store/shim/with-selector')).toBeNull();
    expect(resolveId('react')).toBeNull();
    expect(load('/repo/src/main.tsx')).toBeNull();
  });

  it('gives what the shim itself gives on this React: its own hook', () => {
    const shim = createRequire(import.meta.url)('use-sync-external-store/shim');
    expect(shim.useSyncExternalStore).toBe(useSyncExternalStore);
  });
});
