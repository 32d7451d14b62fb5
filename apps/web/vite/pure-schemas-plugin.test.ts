import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rolldown } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { markSchemasPure, pureSchemasPlugin } from './pure-schemas-plugin.ts';

const contract = [
  "import { z } from 'zod';",
  'const Base = z.object({ id: z.number() });',
  "export const Used = Base.extend({ name: z.string() }).describe('used');",
  "export const Unused = z.object({ q: z.string().optional() }).describe('a query');",
  'export const LIMIT = 50;',
  'export const names = (x) => x;',
  'let mutable = z.string();',
].join('\n');

describe('markSchemasPure', () => {
  it('wraps the top-level constants built by calls in a pure, immediately called arrow', () => {
    const out = markSchemasPure(contract)?.code.split('\n');
    expect(out).toEqual([
      "import { z } from 'zod';",
      'const Base = /* @__PURE__ */ (() => z.object({ id: z.number() }))();',
      "export const Used = /* @__PURE__ */ (() => Base.extend({ name: z.string() }).describe('used'))();",
      "export const Unused = /* @__PURE__ */ (() => z.object({ q: z.string().optional() }).describe('a query'))();",
      'export const LIMIT = 50;',
      'export const names = (x) => x;',
      'let mutable = z.string();',
    ]);
    expect(markSchemasPure('export const A = 1;')).toBeNull();
  });

  it('lets the bundler leave out the schemas nobody imports, and keep what the used ones are made of', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pure-schemas-'));
    try {
      const file = (name: string, text: string) => writeFileSync(path.join(dir, name), text);
      // A stand-in for zod whose calls the bundler cannot see through.
      file('zod.js', 'export const z = globalThis.__z;');
      file('contract.js', contract.replace("'zod'", "'./zod.js'"));
      file('main.js', "import { Used } from './contract.js';\nconsole.log(Used);");
      const build = async (plugins: Parameters<typeof rolldown>[0]['plugins']) => {
        const bundle = await rolldown({ input: path.join(dir, 'main.js'), plugins });
        const { output } = await bundle.generate({ format: 'es' });
        await bundle.close();
        return output[0].code;
      };
      const plain = await build([]);
      expect(plain).toContain('a query');
      const marked = await build([
        {
          name: 'mark',
          transform: (code, id) => (id.endsWith('contract.js') ? markSchemasPure(code, id) : null),
        },
      ]);
      expect(marked).not.toContain('a query');
      expect(marked).toMatch(/describe\(["']used["']\)/);
      expect(marked).toContain('id: z.number()');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('pureSchemasPlugin', () => {
  it("touches the contract's sources only, in builds", () => {
    const plugin = pureSchemasPlugin();
    expect(plugin.apply).toBe('build');
    const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
    expect(transform(contract, '/repo/packages/contract/src/fleet.ts')?.code).toContain('/* @__PURE__ */');
    expect(transform(contract, '/repo/apps/web/src/lib/api/sites.ts')).toBeNull();
  });
});
