import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useCallback, useLayoutEffect } from 'react';

/** The rows a DataTable renders: their indexes in the filtered list and the space above and below them. */
export interface RowWindow {
  indexes: number[];
  padTop: number;
  padBottom: number;
  /** Measures a rendered row (the virtualiser's); absent while the first window is shown without it. */
  measure?: (row: HTMLTableRowElement | null) => void;
}

export interface VirtualWindowProps {
  count: number;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** Height of the scroll box where layout gives none (tests, a hidden tab). */
  height: number;
  rowHeight: number;
  overscan: number;
  /** Called (before paint) whenever the window changes. */
  onWindow: (window: RowWindow) => void;
}

/**
 * The rows of a DataTable in view (plus `overscan`), as TanStack Virtual measures them while the box scrolls,
 * handed to the table, which keeps rendering the rows itself: the rows already on screen stay mounted (focus,
 * an open Ack form) when the virtualiser takes over. Renders nothing. Fetched with the first pointer, focus or
 * scroll over a table longer than its box (data-table.tsx).
 */
export function VirtualWindow({
  count,
  scrollRef,
  height,
  rowHeight,
  overscan,
  onWindow,
}: VirtualWindowProps) {
  // Where layout is unknown (tests, a hidden tab) the box still has its configured height.
  const observeRect = useCallback(
    (
      instance: Parameters<typeof observeElementRect<HTMLDivElement>>[0],
      cb: (r: { width: number; height: number }) => void,
    ) => observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height })),
    [height],
  );
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    initialRect: { width: 0, height },
    observeElementRect: observeRect,
    // Rows are measured where there is layout; without it (tests) they keep the estimate.
    measureElement: (el) => el.getBoundingClientRect().height || rowHeight,
  });
  const items = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();
  const padTop = items.length ? items[0].start : 0;
  const padBottom = items.length ? total - items[items.length - 1].end : 0;
  const first = items.length ? items[0].index : 0;
  useLayoutEffect(() => {
    onWindow({
      indexes: Array.from({ length: items.length }, (_, i) => first + i),
      padTop,
      padBottom,
      measure: virtualizer.measureElement,
    });
  }, [onWindow, first, items.length, padTop, padBottom, virtualizer]);
  return null;
}
