import { describe, expect, it } from 'vitest';
import { layoutStore, selectLayout, selectSidebar, withSelection } from './layout-store.ts';

describe('layout options', () => {
  it('selecting one clears the selected flag on the others', () => {
    const options = [
      { id: 'one-column', name: 'ONE_COLUMN', icon: 'a' },
      { id: 'two-column', name: 'TWO_COLUMN', icon: 'b' },
      { id: 'center-column', name: 'CENTER_COLUMN', icon: 'c' },
    ];
    expect(withSelection(options, 'two-column').map((o) => o.selected)).toEqual([false, true, false]);
  });

  it('publishes the choice app-wide and keeps it', () => {
    const seen: string[] = [];
    const off = layoutStore.subscribe(() =>
      seen.push(`${layoutStore.get().layout}/${layoutStore.get().sidebar}`),
    );
    selectLayout('center-column');
    selectSidebar('right');
    expect(seen).toEqual(['center-column/left', 'center-column/right']);
    expect(JSON.parse(localStorage.getItem('fc-layout') ?? '{}')).toEqual({
      layout: 'center-column',
      sidebar: 'right',
    });
    off();
    selectLayout('one-column');
    selectSidebar('left');
  });
});
