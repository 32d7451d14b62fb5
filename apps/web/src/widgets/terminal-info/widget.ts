import { QUERY_ROOTS } from '../../lib/api/query-keys.ts';
import type { SiteScope } from '../../lib/scope.ts';
import { defineWidget, SITE_SCOPES } from '../../lib/widget-descriptor.ts';

/** The battery and flash drive levels of a site's terminals (docs/product.md#widgets). */
export const widgets = [
  defineWidget<SiteScope>({
    id: 'terminal-battery',
    title: 'TERMINAL_BATTERY',
    load: () =>
      import('./components/terminal-battery-widget.tsx').then((m) => ({ Widget: m.TerminalBatteryWidget })),
    reads: [{ root: QUERY_ROOTS.battery, scopes: SITE_SCOPES, on: ['telemetry'] }],
    log: { kind: 'battery', on: ['telemetry'] },
    boards: { site: { order: 40 } },
  }),
  defineWidget<SiteScope>({
    id: 'flash-drive',
    title: 'FLASH_DRIVE',
    load: () => import('./components/flash-drive-widget.tsx').then((m) => ({ Widget: m.FlashDriveWidget })),
    reads: [{ root: QUERY_ROOTS.flashDrives, scopes: SITE_SCOPES, on: ['telemetry'] }],
    log: { kind: 'flashdrive', on: ['telemetry'] },
    boards: { site: { order: 50 } },
  }),
];
