import { defineWidget } from '../../lib/widget-descriptor.ts';

/** The forecast where the scope's terminals are (docs/product.md#widgets). */
export const widgets = [
  defineWidget({
    id: 'weather',
    title: 'WEATHER',
    load: () => import('./components/weather.tsx').then((m) => ({ Widget: m.WeatherWidget })),
    reads: [],
    boards: { agent: { order: 80 }, company: { order: 80 }, site: { order: 130 } },
  }),
];
