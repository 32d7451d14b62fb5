import path from 'node:path';
import type { Plugin } from 'vite';

const slash = (id: string) => id.replaceAll('\\', '/');

/**
 * Two of Mantine's imports that, in the signed-in first view, bring far more code than they use (issue 15).
 * A module is never split between chunks, and the `signed-in` chunk (vite.config.ts) takes every module its
 * own modules import, so each of these put code that only popovers, menus, tooltips, modals and drawers run
 * (all loaded on first use) into the dashboard's first load:
 *
 * - Mantine's `Table` carries `Table.ScrollContainer`, hence `ScrollArea`, which imports `useMergeRefs` from
 *   `@floating-ui/react`: the whole of floating-ui (~15 KB gzip) came with it. ScrollArea's import resolves to
 *   src/lib/use-merge-refs.ts, the same hook by Mantine's own `useMergedRef`.
 * - The AppShell's header, footer and aside import `RemoveScroll` from `react-remove-scroll` only to read
 *   `RemoveScroll.classNames.zeroRight`; the package's main entry adds the scroll-locking side car (~3 KB
 *   gzip). Their import resolves to `react-remove-scroll/UI`, the package's entry of the same `RemoveScroll`
 *   without the side car. Modals and drawers keep the main entry.
 */
export function leanImportsPlugin(mergeRefs: string): Plugin {
  const file = path.resolve(mergeRefs);
  return {
    name: 'forecourt-lean-imports',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      const from = slash(importer);
      if (source === '@floating-ui/react' && from.includes('/@mantine/core/esm/components/ScrollArea/'))
        return file;
      if (source === 'react-remove-scroll' && from.includes('/@mantine/core/esm/components/AppShell/'))
        return this.resolve('react-remove-scroll/UI', importer, { skipSelf: true });
      return null;
    },
  };
}
