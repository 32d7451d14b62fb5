import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

const slash = (id: string) => id.replaceAll('\\', '/');

/**
 * Library imports that bring far more code than they use into a chunk (decision 0006). A module is never split
 * between chunks, and the `signed-in` chunk (vite.config.ts) takes every module its own modules import, so each
 * of these put code that the first view never runs into the dashboard's first load:
 *
 * - Mantine's `ScrollArea` imports `useMergeRefs` from `@floating-ui/react`, which brought the whole of
 *   floating-ui (~15 KB gzip, what popovers, menus and tooltips run) wherever a ScrollArea went. ScrollArea's
 *   import resolves to src/lib/use-merge-refs.ts, the same hook by Mantine's own `useMergedRef`.
 * - The AppShell's header, footer and aside import `RemoveScroll` from `react-remove-scroll` only to read
 *   `RemoveScroll.classNames.zeroRight`; the package's main entry adds the scroll-locking side car (~3 KB
 *   gzip). Their import resolves to `react-remove-scroll/UI`, the package's entry of the same `RemoveScroll`
 *   without the side car. Modals and drawers keep the main entry.
 * - `Table` itself imports `TableScrollContainer` only to hang it on `Table.ScrollContainer`, and with it the
 *   whole `ScrollArea` (~4 KB gzip) that no widget table of the first view renders. Table's import resolves to
 *   a stand-in that loads the real container when one is first rendered (its children show in a plain
 *   horizontally scrolling box until then); the log screens import `TableScrollContainer` from Mantine, which
 *   is the real one.
 * - zod's classic schemas give every schema a `toJSONSchema()` and a Standard Schema `jsonSchema`, which bring
 *   zod's JSON Schema generator (~4 KB gzip). The console never converts a schema (the server publishes the
 *   OpenAPI document); in the web build both of zod's imports resolve to stand-ins whose conversion throws a
 *   clear error, and `aggregateChecks` (the schemas' `minLength`-style getters) stays zod's own.
 */
export function leanImportsPlugin(mergeRefs: string): Plugin {
  const file = path.resolve(mergeRefs);
  return {
    name: 'forecourt-lean-imports',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer || importer.startsWith(PREFIX)) return null;
      const from = slash(importer);
      if (source === '@floating-ui/react' && from.includes('/@mantine/core/esm/components/ScrollArea/'))
        return file;
      if (source === 'react-remove-scroll' && from.includes('/@mantine/core/esm/components/AppShell/'))
        return this.resolve('react-remove-scroll/UI', importer, { skipSelf: true });
      const standIn = STAND_INS.find((s) => source === s.source && from.endsWith(s.importer));
      if (!standIn) return null;
      const real = await this.resolve(source, importer, { skipSelf: true });
      return real ? `${PREFIX}${standIn.name}:${real.id}` : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const [name, ...rest] = id.slice(PREFIX.length).split(':');
      const realId = rest.join(':');
      const standIn = STAND_INS.find((s) => s.name === name);
      if (!standIn) return null;
      return standIn.code(JSON.stringify(realId), await readFile(realId.split('?')[0], 'utf8'));
    },
  };
}

/** Ids of the stand-ins' modules: `\0` keeps other plugins away from them; the real module's id follows. */
const PREFIX = '\0forecourt-lean:';

const NO_JSON_SCHEMA =
  "'Converting a zod schema to JSON Schema is not part of the web build (vite/lean-imports-plugin.ts); the server publishes the OpenAPI document.'";

/** The names a module exports as `export const name` or `export function name`. */
const exportedNames = (code: string) =>
  [...code.matchAll(/^export (?:const|function) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);

/**
 * Modules that stand in for one import of one module of a package; `code` gets the replaced module's id (quoted)
 * and its source.
 */
export const STAND_INS: {
  name: string;
  source: string;
  importer: string;
  code: (real: string, source: string) => string;
}[] = [
  {
    name: 'table-scroll-container',
    source: './TableScrollContainer.mjs',
    importer: '/@mantine/core/esm/components/Table/Table.mjs',
    code: (real) => `import { createElement, lazy, Suspense } from 'react';
const Real = lazy(() => import(${real}).then((m) => ({ default: m.TableScrollContainer })));
export function TableScrollContainer(props) {
  const fallback = createElement('div', { style: { overflowX: 'auto' } }, props.children);
  return createElement(Suspense, { fallback }, createElement(Real, props));
}
TableScrollContainer.displayName = '@mantine/core/TableScrollContainer';
`,
  },
  {
    name: 'zod-json-schema-processors',
    source: '../core/json-schema-processors.js',
    importer: '/zod/v4/classic/schemas.js',
    // Every other export of zod's module (the processors) throws if called; aggregateChecks is zod's own.
    code: (real, source) => `export { aggregateChecks } from ${real};
const unavailable = () => { throw new Error(${NO_JSON_SCHEMA}); };
export const ${exportedNames(source)
      .filter((n) => n !== 'aggregateChecks')
      .map((n) => `${n} = unavailable`)
      .join(', ')};
`,
  },
  {
    name: 'zod-to-json-schema',
    source: '../core/to-json-schema.js',
    importer: '/zod/v4/classic/schemas.js',
    code: () => `const unavailable = () => { throw new Error(${NO_JSON_SCHEMA}); };
export const createToJSONSchemaMethod = () => unavailable;
export const createStandardJSONSchemaMethod = () => unavailable;
`,
  },
];
