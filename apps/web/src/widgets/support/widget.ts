import { defineWidget } from '../../lib/widget-descriptor.ts';

/** A support ticket, written from any dashboard (docs/product.md#widgets). */
export const widgets = [
  defineWidget({
    id: 'support',
    title: 'SUPPORT',
    load: () => import('./components/support.tsx').then((m) => ({ Widget: m.Support })),
    reads: [],
    boards: { agent: { order: 100 }, company: { order: 100 }, site: { order: 150 } },
  }),
];
