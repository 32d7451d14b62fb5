import type { i18n as I18n } from 'i18next';
import { HashRouter } from 'react-router';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './router.tsx';

export function App({ i18n }: { i18n: I18n }) {
  return (
    <AppProviders i18n={i18n}>
      <HashRouter>
        <AppRoutes />
      </HashRouter>
    </AppProviders>
  );
}
