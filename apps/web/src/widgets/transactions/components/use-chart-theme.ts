import { useEffect, useState } from 'react';
import { type ChartTheme, readChartTheme } from '../transaction-chart-data.ts';

/** The chart colours of the current theme; re-read when the theme switches (light ⇄ cosmic). */
export function useChartTheme(): ChartTheme {
  const [theme, setTheme] = useState<ChartTheme>(() => readChartTheme());
  useEffect(() => {
    const root = document.documentElement;
    const update = () =>
      setTheme((prev) => {
        const next = readChartTheme(root);
        return JSON.stringify(prev) === JSON.stringify(next) ? prev : next;
      });
    update();
    const observer = new MutationObserver(update);
    observer.observe(root, {
      attributes: true,
      attributeFilter: ['data-mantine-color-scheme', 'style', 'class'],
    });
    return () => observer.disconnect();
  }, []);
  return theme;
}
