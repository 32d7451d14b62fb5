import { useMergedRef } from '@mantine/hooks';
import type { Ref, RefCallback } from 'react';

/**
 * `useMergeRefs(refs)` of `@floating-ui/react` (one callback ref that sets every ref of the list, with React
 * 19's ref cleanups) by Mantine's own `useMergedRef`. Mantine's ScrollArea imports it from floating-ui; the
 * build points that one import here (vite/lean-imports-plugin.ts), so the ScrollArea that Mantine's Table
 * carries brings no floating-ui code into the dashboard's first load.
 */
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>): RefCallback<T> {
  return useMergedRef<T>(...refs);
}
