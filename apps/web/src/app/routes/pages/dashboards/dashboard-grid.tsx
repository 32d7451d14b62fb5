import { Group, Text, Title } from '@mantine/core';
import { type ReactNode, Suspense, startTransition, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './dashboard-grid.css';
import { whenFirstReadsDrawn } from '../../../../lib/when-first-view-drawn.ts';
import { whenIdle } from '../../../../lib/when-idle.ts';

/**
 * The responsive grid every dashboard lays its widgets on: one column on phones, two on tablets,
 * three on wide screens. Widgets flow in order; `Cell` lets one span more columns or two rows.
 */
export function DashboardGrid({ children }: { children?: ReactNode }) {
  return <div className="fc-dashboard-grid">{children}</div>;
}

export interface CellProps {
  /** Columns to span where there is room (1 on phones always). @default 1 */
  span?: 1 | 2 | 3;
  /** Rows to span (double-height widgets: size2X). @default 1 */
  rows?: 1 | 2;
  /**
   * A widget below the fold: rendered (its code fetched, its data asked for) only when the cell comes within
   * `NEAR_VIEWPORT` of the viewport, when the keyboard's Tab is first pressed, before the page is printed, or
   * once the page has been open `IDLE_RENDER_MS` (then one cell at a time, see `renderWhenIdle`). Until then
   * the cell keeps its place with an empty box of the widget's height. @default false
   */
  lazy?: boolean;
  /**
   * A lazy cell that is not part of the board's first view: when it is near the viewport as the page opens, it
   * renders only once the first view's reads have been drawn (lib/first-view-gate.ts), so that its code and data
   * do not share a phone's link and main thread with the first view's. @default false
   */
  afterFirstView?: boolean;
  children: ReactNode;
}

/** How close a lazy cell comes to the viewport before its widget is rendered. */
export const NEAR_VIEWPORT = '150px 0px';
/** After this long on the page, lazy cells render even out of view (find in page, a wall screen's reader). */
export const IDLE_RENDER_MS = 8_000;

/** Lazy cells due for their idle render, in the order their time came (the page's order). */
const idleQueue: Array<() => void> = [];
let idlePumping = false;

/**
 * Renders the queued cells one at a time, each in an idle period of the browser and as a transition (React
 * renders it in slices of a few milliseconds): rendering every lower widget in one go took the main thread for
 * 300 ms and more on a phone (decision 0006), in the middle of whatever the user was doing.
 */
function renderWhenIdle(render: () => void): () => void {
  idleQueue.push(render);
  if (!idlePumping) {
    idlePumping = true;
    const next = () => {
      const first = idleQueue.shift();
      if (!first) {
        idlePumping = false;
        return;
      }
      startTransition(first);
      whenIdle(next, 2_000);
    };
    whenIdle(next, 2_000);
  }
  return () => {
    const at = idleQueue.indexOf(render);
    if (at >= 0) idleQueue.splice(at, 1);
  };
}

/**
 * True once the element is near the viewport, the keyboard's Tab has been pressed, the page is printed or it
 * has been open `IDLE_RENDER_MS`.
 */
function useNearViewport(enabled: boolean, afterFirstView: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(!enabled);
  useEffect(() => {
    if (near) return;
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    // Outside the first view, a cell near the viewport as the page opens waits for the first view's reads to be
    // drawn (on a site dashboard on a phone, the pump status's three files were the last requests of Lighthouse's
    // largest paint). Then a transition, as the idle renders below: React draws it in slices of a few ms.
    let cancelWait = () => {};
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        cancelWait();
        const show = () => startTransition(() => setNear(true));
        if (afterFirstView) cancelWait = whenFirstReadsDrawn(show);
        else show();
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(el);
    // Someone walking the page with Tab gets every widget at once: a control that is not rendered yet
    // could not take focus, and the Tab order would skip it.
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Tab') setNear(true);
    };
    window.addEventListener('keydown', onKey, true);
    // A printed dashboard shows every widget, not the boxes of those never scrolled to.
    const onPrint = () => setNear(true);
    window.addEventListener('beforeprint', onPrint);
    let dequeue: (() => void) | undefined;
    const timer = window.setTimeout(() => {
      dequeue = renderWhenIdle(() => setNear(true));
    }, IDLE_RENDER_MS);
    return () => {
      observer.disconnect();
      cancelWait();
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('beforeprint', onPrint);
      window.clearTimeout(timer);
      dequeue?.();
    };
  }, [near, afterFirstView]);
  return { ref, near };
}

/** The widget's box while its code loads: a status that says so, as a card's own loader does. */
function CellPlaceholder() {
  const { t } = useTranslation();
  return <div className="fc-dashboard-cell-placeholder" role="status" aria-label={t('LOADING')} />;
}

export function Cell({ span = 1, rows = 1, lazy = false, afterFirstView = false, children }: CellProps) {
  const { ref, near } = useNearViewport(lazy, afterFirstView);
  return (
    <div
      ref={ref}
      className="fc-dashboard-cell"
      data-span={span}
      data-rows={rows}
      data-pending={near ? undefined : ''}
    >
      {near && <Suspense fallback={<CellPlaceholder />}>{children}</Suspense>}
    </div>
  );
}

/**
 * The page heading is always 'Dashboard'; what it shows (agent, company, site) follows it. With `extra`, room is
 * kept from the first paint for what arrives later (dashboard-grid.css), so the board below never moves down: on a
 * phone, two lines of subtitle and a line each for `extra` and `actions` (given as `false` before they load).
 */
export function DashboardHeader({
  title,
  subtitle,
  extra,
  actions,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Shown after the subtitle (a site's availability). */
  extra?: ReactNode;
  /** Buttons at the end of the heading's line (a site's "Maintenance window"); only with `extra`. */
  actions?: ReactNode;
}) {
  return (
    <Group align="baseline" mb="md" gap="xs" wrap="wrap">
      <Title order={1} fz="h2">
        {title}
      </Title>
      {subtitle && (
        <Text c="dimmed" fz="lg" fw={500} data-testid="dashboard-scope">
          {subtitle}
        </Text>
      )}
      {extra !== undefined && (
        <div className="fc-dh-line">
          <div>{extra}</div>
          <Group ms="auto">{actions}</Group>
        </div>
      )}
    </Group>
  );
}
