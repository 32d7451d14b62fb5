import { createStore, useStore } from './create-store.ts';

/** The header search emits its text as the user types; pages and widgets may listen. */
export const headerSearchStore = createStore('');

export function emitHeaderSearch(text: string) {
  headerSearchStore.set(text);
}

export function useHeaderSearch(): string {
  return useStore(headerSearchStore);
}
