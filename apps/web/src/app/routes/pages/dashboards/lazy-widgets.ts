import { lazy } from 'react';

/**
 * Widgets that sit below the fold on every screen size: their code is fetched only when their cell comes near
 * the viewport (`<Cell lazy>`), so a dashboard's first load carries the widgets in view and no more.
 */
export const ConnectivityWidget = lazy(() =>
  import('../../../../widgets/connectivity/components/connectivity-widget.tsx').then((m) => ({
    default: m.ConnectivityWidget,
  })),
);
export const HardwareIssuesWidget = lazy(() =>
  import('../../../../widgets/hardware-issues/components/hardware-issues-widget.tsx').then((m) => ({
    default: m.HardwareIssuesWidget,
  })),
);
export const ShockWidget = lazy(() =>
  import('../../../../widgets/shock/components/shock-widget.tsx').then((m) => ({ default: m.ShockWidget })),
);
export const WeatherWidget = lazy(() =>
  import('../../../../widgets/weather/components/weather.tsx').then((m) => ({ default: m.WeatherWidget })),
);
export const TerminalReboot = lazy(() =>
  import('../../../../widgets/reboot/components/terminal-reboot.tsx').then((m) => ({
    default: m.TerminalReboot,
  })),
);
export const Support = lazy(() =>
  import('../../../../widgets/support/components/support.tsx').then((m) => ({ default: m.Support })),
);
export const TransactionActivityWidget = lazy(() =>
  import('../../../../widgets/transactions/components/transaction-activity.tsx').then((m) => ({
    default: m.TransactionActivityWidget,
  })),
);
