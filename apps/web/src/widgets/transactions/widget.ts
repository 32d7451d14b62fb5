import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { SiteScope } from '../../lib/scope.ts';
import { defineWidget, SITE_SCOPES } from '../../lib/widget-descriptor.ts';

/** A site's transactions over the last hour and day (docs/product.md#widgets). */
export const widgets = [
  defineWidget<SiteScope>({
    id: 'transaction-activity',
    title: 'TRANSACTION_ACTIVITY',
    load: () =>
      import('./components/transaction-activity.tsx').then((m) => ({
        Widget: m.SiteTransactionActivityWidget,
      })),
    reads: [{ root: QUERY_ROOTS.transactions, scopes: SITE_SCOPES, on: ['transaction'] }],
    boards: { site: { order: 120, rows: 2 } },
  }),
];
