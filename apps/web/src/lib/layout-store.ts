import { createStore, useStore } from './create-store.ts';
import { storage } from './storage.ts';

export type LayoutId = 'one-column' | 'two-column' | 'three-column' | 'center-column';
export type SidebarId = 'left' | 'right';

/** A choice in the settings sidebar (name, icon, id, selected; docs/product.md#page-frame). */
export interface LayoutOption<T extends string> {
  id: T;
  /** Translation key of the label. */
  name: string;
  icon: string;
  selected: boolean;
}

export const LAYOUT_IDS: LayoutId[] = ['one-column', 'two-column', 'three-column', 'center-column'];
export const SIDEBAR_IDS: SidebarId[] = ['left', 'right'];

export interface LayoutState {
  layout: LayoutId;
  sidebar: SidebarId;
}

const KEY = 'fc-layout';
export const DEFAULT_LAYOUT: LayoutState = { layout: 'one-column', sidebar: 'left' };

function read(): LayoutState {
  try {
    const raw = JSON.parse(storage.get(KEY) ?? 'null') as Partial<LayoutState> | null;
    return {
      layout: LAYOUT_IDS.includes(raw?.layout as LayoutId)
        ? (raw?.layout as LayoutId)
        : DEFAULT_LAYOUT.layout,
      sidebar: SIDEBAR_IDS.includes(raw?.sidebar as SidebarId)
        ? (raw?.sidebar as SidebarId)
        : DEFAULT_LAYOUT.sidebar,
    };
  } catch {
    return DEFAULT_LAYOUT;
  }
}

/** The layout and sidebar choice, published app-wide (and kept for the next visit). */
export const layoutStore = createStore<LayoutState>(read());
layoutStore.subscribe(() => storage.set(KEY, JSON.stringify(layoutStore.get())));

export function selectLayout(layout: LayoutId) {
  layoutStore.set((s) => ({ ...s, layout }));
}
export function selectSidebar(sidebar: SidebarId) {
  layoutStore.set((s) => ({ ...s, sidebar }));
}

/** Exactly one option selected: picking one clears the flag on the others. */
export function withSelection<T extends string>(
  options: Omit<LayoutOption<T>, 'selected'>[],
  id: T,
): LayoutOption<T>[] {
  return options.map((o) => ({ ...o, selected: o.id === id }));
}

export function useLayout(): LayoutState {
  return useStore(layoutStore);
}
