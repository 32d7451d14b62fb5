import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { SiteScope } from '../../lib/scope.ts';
import { defineWidget, SITE_SCOPES } from '../../lib/widget-descriptor.ts';

/** A site's pumps, switched on and off from their tiles (docs/product.md#widgets). */
export const widgets = [
  defineWidget<SiteScope>({
    id: 'pump-activation',
    title: 'PUMP_ACTIVATION',
    load: () =>
      Promise.all([import('./components/pump-activation.tsx'), import('./api/get-pumps.ts')]).then(
        ([m, q]) => ({
          Widget: m.PumpActivation,
          firstReads: (scope: SiteScope) => [q.pumpQueries.site(scope)],
        }),
      ),
    reads: [{ root: QUERY_ROOTS.pumps, scopes: SITE_SCOPES, on: ['pump', 'fleet'] }],
    log: { kind: 'pump-activation', on: ['pump'] },
    boards: { site: { order: 20, span: 2, firstView: 'code' } },
  }),
];
