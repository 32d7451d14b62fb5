import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Cell, DashboardGrid, IDLE_RENDER_MS } from './dashboard-grid.tsx';

/** jsdom lays nothing out: the observer is driven by hand, as the browser would on scrolling. */
const observers: { callback: IntersectionObserverCallback; targets: Element[]; margin?: string }[] = [];
class HandDrivenObserver {
  private entry: (typeof observers)[number];
  constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
    this.entry = { callback, targets: [], margin: options?.rootMargin };
    observers.push(this.entry);
  }
  observe(el: Element) {
    this.entry.targets.push(el);
  }
  disconnect() {
    this.entry.targets = [];
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
}
function scrollIntoReach(el: Element) {
  for (const o of observers) {
    if (!o.targets.includes(el)) continue;
    o.callback(
      [{ target: el, isIntersecting: true } as unknown as IntersectionObserverEntry],
      o as unknown as IntersectionObserver,
    );
  }
}

describe('Cell lazy', () => {
  beforeEach(() => {
    observers.length = 0;
    vi.stubGlobal('IntersectionObserver', HandDrivenObserver);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('renders an eager cell at once and a lazy one only when it comes near the viewport', () => {
    render(
      <DashboardGrid>
        <Cell>
          <p>map</p>
        </Cell>
        <Cell rows={2} lazy>
          <p>shock</p>
        </Cell>
      </DashboardGrid>,
    );
    expect(screen.getByText('map')).toBeInTheDocument();
    expect(screen.queryByText('shock')).toBeNull();
    const pending = document.querySelector('.fc-dashboard-cell[data-pending]');
    expect(pending).toHaveAttribute('data-rows', '2');
    expect(observers[0].margin).toMatch(/px/);
    act(() => scrollIntoReach(pending as Element));
    expect(screen.getByText('shock')).toBeInTheDocument();
    expect(document.querySelector('.fc-dashboard-cell[data-pending]')).toBeNull();
  });

  it('renders lazy cells out of view once the page has been open a while, one per idle moment', () => {
    render(
      <DashboardGrid>
        <Cell lazy>
          <p>weather</p>
        </Cell>
        <Cell lazy>
          <p>support</p>
        </Cell>
      </DashboardGrid>,
    );
    act(() => vi.advanceTimersByTime(IDLE_RENDER_MS - 100));
    expect(screen.queryByText('weather')).toBeNull();
    // The browser's idle callback (or its stand-in timer) hands out one cell at a time, in the page's order.
    act(() => vi.advanceTimersByTime(100));
    act(() => vi.advanceTimersToNextTimer());
    expect(screen.getByText('weather')).toBeInTheDocument();
    expect(screen.queryByText('support')).toBeNull();
    act(() => vi.advanceTimersToNextTimer());
    expect(screen.getByText('support')).toBeInTheDocument();
  });

  it('renders a lazy cell out of view for printing', () => {
    render(
      <Cell lazy>
        <p>shock</p>
      </Cell>,
    );
    expect(screen.queryByText('shock')).toBeNull();
    act(() => {
      window.dispatchEvent(new Event('beforeprint'));
    });
    expect(screen.getByText('shock')).toBeInTheDocument();
  });

  it('renders every lazy cell at the first Tab, so the keyboard reaches every control', () => {
    render(
      <DashboardGrid>
        <Cell lazy>
          <button type="button">Reboot</button>
        </Cell>
        <Cell lazy>
          <button type="button">Contact support</button>
        </Cell>
      </DashboardGrid>,
    );
    expect(screen.queryByRole('button')).toBeNull();
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift' }));
    });
    expect(screen.queryByRole('button')).toBeNull();
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    });
    expect(screen.getAllByRole('button')).toHaveLength(2);
  });

  it('renders at once where there is no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(
      <Cell lazy>
        <p>support</p>
      </Cell>,
    );
    expect(screen.getByText('support')).toBeInTheDocument();
  });
});
