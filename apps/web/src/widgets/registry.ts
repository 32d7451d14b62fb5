import { type Preloadable, preloadable } from '../lib/preloadable.ts';
import type { Board, Placement, WidgetDescriptor, WidgetModule } from '../lib/widget-descriptor.ts';

/**
 * Every widget's descriptors, found by their place: `widgets/<name>/widget.ts` exporting `widgets`
 * (docs/adding-a-widget.md). Keyed by the descriptor module's path under src/widgets (`./maps/widget.ts`): the
 * build (vite.config.ts, app/boot/plan.ts) tells the first view's widget code by the module that imports it.
 */
export const WIDGET_MODULES: Record<string, readonly WidgetDescriptor[]> = Object.fromEntries(
  Object.entries(
    import.meta.glob<readonly WidgetDescriptor[]>('./*/widget.ts', { eager: true, import: 'widgets' }),
  ).map(([file, widgets]) => [file, widgets]),
);

export const WIDGETS: readonly WidgetDescriptor[] = Object.values(WIDGET_MODULES).flat();

/** One cell of a board's layout. */
export interface BoardCell {
  widget: WidgetDescriptor;
  place: Placement;
}

/** A board's layout: the widgets placed on it, in their order. */
export function boardLayout(board: Board): BoardCell[] {
  return WIDGETS.flatMap((widget) => {
    const place = widget.boards[board];
    return place ? [{ widget, place }] : [];
  }).sort((a, b) => a.place.order - b.place.order);
}

const code = new WeakMap<WidgetDescriptor, Preloadable<WidgetModule>>();

/** A widget's code, loaded once (lib/preloadable.ts): the boot loads a first view's ahead, the board renders it. */
export function widgetCode(widget: WidgetDescriptor): Preloadable<WidgetModule> {
  let load = code.get(widget);
  if (!load) {
    load = preloadable(widget.load);
    code.set(widget, load);
  }
  return load;
}
