import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useCarousel } from './use-carousel.ts';

function carousel(ids: readonly string[], start?: number) {
  return renderHook(({ list, from }) => useCarousel(list, from), {
    initialProps: { list: ids, from: start },
  });
}

describe('useCarousel', () => {
  it('starts at the first item and wraps around both ways', () => {
    const { result } = carousel(['a', 'b', 'c']);
    expect(result.current.index).toBe(0);
    act(() => result.current.prev());
    expect(result.current.index).toBe(2);
    act(() => result.current.next());
    act(() => result.current.next());
    expect(result.current.index).toBe(1);
    act(() => result.current.next());
    act(() => result.current.next());
    expect(result.current.index).toBe(0);
  });

  it('keeps the chosen item when a poll answers the same list', () => {
    const { result, rerender } = carousel(['a', 'b', 'c']);
    act(() => result.current.next());
    rerender({ list: ['a', 'b', 'c'], from: undefined });
    expect(result.current.index).toBe(1);
  });

  it('selects the first item again when the list changes', () => {
    const { result, rerender } = carousel(['a', 'b', 'c']);
    act(() => result.current.next());
    act(() => result.current.next());
    rerender({ list: ['a', 'b', 'd'], from: undefined });
    expect(result.current.index).toBe(0);
    act(() => result.current.next());
    rerender({ list: ['b', 'a', 'd'], from: undefined });
    expect(result.current.index).toBe(0);
  });

  it('starts at start modulo the count, and goes back there when the list changes', () => {
    const { result, rerender } = carousel(['a', 'b', 'c'], 5);
    expect(result.current.index).toBe(2);
    act(() => result.current.next());
    expect(result.current.index).toBe(0);
    rerender({ list: ['a', 'b', 'c', 'd'], from: 5 });
    expect(result.current.index).toBe(1);
  });

  it('has index 0 and harmless moves for an empty list, then shows the first item when one arrives', () => {
    const { result, rerender } = carousel([]);
    expect(result.current.index).toBe(0);
    act(() => result.current.next());
    act(() => result.current.prev());
    expect(result.current.index).toBe(0);
    rerender({ list: ['a', 'b'], from: undefined });
    expect(result.current.index).toBe(0);
  });
});
