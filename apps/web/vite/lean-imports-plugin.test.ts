import path from 'node:path';
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
  it("gives Mantine's ScrollArea the app's useMergeRefs and the AppShell react-remove-scroll's UI entry", () => {
    expect(resolve('@floating-ui/react', `${mantine}/ScrollArea/ScrollArea.mjs`)).toBe(mergeRefs);
    expect(resolve('react-remove-scroll', `${mantine}/AppShell/AppShellHeader/AppShellHeader.mjs`)).toBe(
      'resolved:react-remove-scroll/UI',
    );
  });
  it('leaves every other importer alone: popovers, modals and the app keep the packages themselves', () => {
    expect(resolve('@floating-ui/react', `${mantine}/Popover/Popover.mjs`)).toBeNull();
    expect(resolve('react-remove-scroll', `${mantine}/ModalBase/ModalBase.mjs`)).toBeNull();
    expect(resolve('@floating-ui/react', '/app/src/components/anchored-tooltip.tsx')).toBeNull();
    expect(resolve('@floating-ui/react')).toBeNull();
  });
});
