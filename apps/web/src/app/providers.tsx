import { MantineProvider } from '@mantine/core';
import type { i18n as I18n } from 'i18next';
import { type ReactNode, Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { PageLoader } from '../components/page-loader.tsx';
import { colorSchemeManager, cssVariablesResolver, theme } from '../theme/theme.ts';

export interface AppProvidersProps {
  i18n: I18n;
  /** `test` turns off Mantine transitions and portals. @default 'default' */
  env?: 'default' | 'test';
  children: ReactNode;
}

/**
 * What every screen needs: theme and translations. Data, toasts and modals (AppServices) come with
 * the lazily loaded page frame.
 */
export function AppProviders({ i18n, env = 'default', children }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="light"
      cssVariablesResolver={cssVariablesResolver}
      env={env}
    >
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={<PageLoader />}>{children}</Suspense>
      </I18nextProvider>
    </MantineProvider>
  );
}
