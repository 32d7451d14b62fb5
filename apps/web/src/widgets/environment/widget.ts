import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { SiteScope } from '../../lib/scope.ts';
import { defineWidget, type LiveRead, SITE_SCOPES } from '../../lib/widget-descriptor.ts';

const load = () => import('./components/environment-widget.tsx');
const reads: LiveRead[] = [{ root: QUERY_ROOTS.environment, scopes: SITE_SCOPES, on: ['telemetry'] }];
const log = { kind: 'environment', on: ['telemetry'] } as const;

/** A site's terminal readings: board temperature, humidity, internal temperature (docs/product.md#widgets). */
export const widgets = [
  defineWidget<SiteScope>({
    id: 'board-temperature',
    title: 'BOARD_TEMPERATURE',
    load: () => load().then((m) => ({ Widget: m.BoardTemperatureWidget })),
    reads,
    log,
    boards: { site: { order: 60 } },
  }),
  defineWidget<SiteScope>({
    id: 'humidity',
    title: 'HUMIDITY',
    load: () => load().then((m) => ({ Widget: m.HumidityWidget })),
    reads,
    log,
    boards: { site: { order: 70 } },
  }),
  defineWidget<SiteScope>({
    id: 'internal-temperature',
    title: 'INTERNAL_TEMPERATURE',
    load: () => load().then((m) => ({ Widget: m.InternalTemperatureWidget })),
    reads,
    log,
    boards: { site: { order: 80 } },
  }),
];
