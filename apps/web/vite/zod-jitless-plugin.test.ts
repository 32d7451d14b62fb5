import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { zodJitlessPlugin } from './zod-jitless-plugin.ts';

const wrapper = path.resolve('/app/src/zod-jitless.ts');
const resolve = (source: string, importer?: string) =>
  (zodJitlessPlugin(wrapper).resolveId as (s: string, i?: string) => string | null)(source, importer);

describe('zodJitlessPlugin', () => {
  it("sends every import of 'zod' through the wrapper, except the wrapper's own", () => {
    expect(resolve('zod', '/app/src/lib/api/sites.ts')).toBe(wrapper);
    expect(resolve('zod', '/repo/packages/contract/src/users.ts')).toBe(wrapper);
    expect(resolve('zod', `${wrapper}?v=1`)).toBeNull();
    expect(resolve('zod/v4/core', '/app/src/a.ts')).toBeNull();
    expect(resolve('zod')).toBeNull();
  });
});
