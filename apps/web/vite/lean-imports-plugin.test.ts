import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { leanImportsPlugin } from './lean-imports-plugin.ts';

const mergeRefs = path.resolve('/app/src/lib/use-merge-refs.ts');
const mantine = '/repo/node_modules/@mantine/core/esm/components';
const resolve = (source: string, importer?: string) => {
  const calls: string[] = [];
  const context = { resolve: (id: string) => calls.push(id) && `resolved:${id}` };
  const hook = leanImportsPlugin(mergeRefs).resolveId as (this: unknown, s: string, i?: string) => unknown;
  return hook.call(context, source, importer);
};

describe('leanImportsPlugin', () => {
  it("gives Mantine's ScrollArea the app's useMergeRefs and the AppShell react-remove-scroll's UI entry", async () => {
    expect(await resolve('@floating-ui/react', `${mantine}/ScrollArea/ScrollArea.mjs`)).toBe(mergeRefs);
    expect(
      await resolve('react-remove-scroll', `${mantine}/AppShell/AppShellHeader/AppShellHeader.mjs`),
    ).toBe('resolved:react-remove-scroll/UI');
  });
  it('leaves every other importer alone: popovers, modals and the app keep the packages themselves', async () => {
    expect(await resolve('@floating-ui/react', `${mantine}/Popover/Popover.mjs`)).toBeNull();
    expect(await resolve('react-remove-scroll', `${mantine}/ModalBase/ModalBase.mjs`)).toBeNull();
    expect(await resolve('@floating-ui/react', '/app/src/components/anchored-tooltip.tsx')).toBeNull();
    expect(await resolve('@floating-ui/react')).toBeNull();
  });
});

const standInHooks = () => {
  const plugin = leanImportsPlugin(mergeRefs);
  const context = {
    resolve: async (id: string, importer: string) => ({ id: path.resolve(path.dirname(importer), id) }),
  };
  const resolveId = (
    plugin.resolveId as (this: unknown, s: string, i?: string) => Promise<string | null>
  ).bind(context);
  const load = (plugin.load as (this: unknown, id: string) => Promise<string | null>).bind(context);
  return { resolveId, load };
};

describe('leanImportsPlugin stand-ins', () => {
  const zodClassic = fileURLToPath(import.meta.resolve('zod')).replace(
    /index\.c?js$/,
    'v4/classic/schemas.js',
  );
  const table = fileURLToPath(import.meta.resolve('@mantine/core')).replace(
    /cjs[\\/]index\.c?js$|esm[\\/]index\.mjs$/,
    'esm/components/Table/Table.mjs',
  );

  it("gives Table's ScrollContainer a stand-in that loads the real container on first render", async () => {
    const { resolveId, load } = standInHooks();
    const id = await resolveId('./TableScrollContainer.mjs', table);
    expect(id).toMatch(/^\0forecourt-lean:table-scroll-container:.*TableScrollContainer\.mjs$/);
    const code = (await load(id as string)) ?? '';
    expect(code).toContain('lazy(() => import(');
    expect(code).toContain('TableScrollContainer.mjs');
    expect(code).toContain('export function TableScrollContainer');
    // Any other importer (the log screens' own import from '@mantine/core') gets the real module.
    expect(
      await resolveId('./TableScrollContainer.mjs', '/repo/node_modules/@mantine/core/esm/index.mjs'),
    ).toBeNull();
  });

  it("leaves zod's aggregateChecks real and makes every other export of the JSON Schema processors throw", async () => {
    const { resolveId, load } = standInHooks();
    const id = await resolveId('../core/json-schema-processors.js', zodClassic);
    expect(id).toMatch(/^\0forecourt-lean:zod-json-schema-processors:/);
    const code = (await load(id as string)) ?? '';
    expect(code).toMatch(/export \{ aggregateChecks \} from ".*json-schema-processors\.js";/);
    // Every processor zod's classic schemas name is exported by the stand-in (fails when a zod upgrade adds one
    // the stand-in does not know).
    const classic = await readFile(zodClassic, 'utf8');
    const named = new Set([...classic.matchAll(/processors\.([A-Za-z]+Processor)\b/g)].map((m) => m[1]));
    expect(named.size).toBeGreaterThan(30);
    for (const name of named) expect(code, name).toMatch(new RegExp(`\\b${name} = unavailable\\b`));
    expect(code).not.toMatch(/\baggregateChecks = unavailable/);
    const toJson = await load((await resolveId('../core/to-json-schema.js', zodClassic)) as string);
    expect(toJson).toContain('export const createToJSONSchemaMethod = () => unavailable');
    expect(toJson).toContain('export const createStandardJSONSchemaMethod = () => unavailable');
  });

  it('the stand-ins throw a clear error when asked for JSON Schema', async () => {
    const { resolveId, load } = standInHooks();
    const code = (await load((await resolveId('../core/to-json-schema.js', zodClassic)) as string)) ?? '';
    const module = await import(`data:text/javascript,${encodeURIComponent(code)}`);
    expect(() => module.createToJSONSchemaMethod({})({})).toThrow(/not part of the web build/);
  });

  it('leaves the same imports from other modules alone', async () => {
    const { resolveId } = standInHooks();
    expect(
      await resolveId('../core/json-schema-processors.js', '/repo/node_modules/zod/v4/core/index.js'),
    ).toBeNull();
    expect(
      await resolveId('../core/to-json-schema.js', '/repo/node_modules/zod/v4/mini/schemas.js'),
    ).toBeNull();
  });
});
