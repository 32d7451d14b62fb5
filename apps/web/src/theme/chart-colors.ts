/** Chart colour variables defined by theme.css for both themes. */
export const CHART_VARIABLES = {
  normal: '--fc-chart-normal',
  zero: '--fc-chart-zero',
  lt1: '--fc-chart-lt1',
  grid: '--fc-chart-grid',
  axis: '--fc-chart-axis',
  text: '--fc-chart-text',
} as const;

/** Read a theme variable's current value (charts need real colours, not `var(...)`). */
export function readCssVariable(name: string, element: Element = document.documentElement): string {
  return getComputedStyle(element).getPropertyValue(name).trim();
}
