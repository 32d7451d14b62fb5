import { BOARDS, type Board } from '../../lib/widget-descriptor.ts';
import { WIDGET_MODULES } from '../../widgets/registry.ts';
import { DASHBOARD_ROUTES } from './dashboards.ts';

/**
 * What the build needs to know of the first views (vite.config.ts loads this module with Vite's module runner and
 * hands it to boot-plugin.ts): the dashboards' routes and boards, from the route table (dashboards.ts), and for
 * each board the widget descriptor modules (`./maps/widget.ts`, under src/widgets) of its first view, from the
 * descriptors' `firstView`. The build tells a first view's code by the module that imports it: the page frame and
 * the dashboards' pages are imported by dashboards.ts, a widget's component by its descriptor module.
 */
export interface BootPlan {
  routes: { path: string; board: Board }[];
  firstView: Record<Board, string[]>;
}

export function bootPlan(): BootPlan {
  const modules = Object.entries(WIDGET_MODULES);
  const firstView = Object.fromEntries(
    BOARDS.map((board) => [
      board,
      modules.filter(([, widgets]) => widgets.some((w) => w.boards[board]?.firstView)).map(([file]) => file),
    ]),
  ) as Record<Board, string[]>;
  return { routes: DASHBOARD_ROUTES.map(({ path, board }) => ({ path, board })), firstView };
}
