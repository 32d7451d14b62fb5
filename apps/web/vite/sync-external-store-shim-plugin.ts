import type { Plugin } from 'vite';

const SHIM = 'use-sync-external-store/shim';
const REACTS_OWN = '\0forecourt:use-sync-external-store';

/**
 * react-i18next imports `useSyncExternalStore` from the `use-sync-external-store/shim` package, for Reacts older
 * than 18; on React 18 and later the shim hands back React's own hook, but its fallback code still travels in
 * the login route's chunk. In builds the import resolves to a one-line module that re-exports React's hook:
 * the same function the shim returns (React 19 here), without the fallback.
 */
export function syncExternalStoreShimPlugin(): Plugin {
  return {
    name: 'forecourt-sync-external-store-shim',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source === SHIM ? REACTS_OWN : null;
    },
    load(id) {
      return id === REACTS_OWN ? "export { useSyncExternalStore } from 'react';\n" : null;
    },
  };
}
