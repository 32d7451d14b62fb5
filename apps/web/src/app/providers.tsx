import { DirectionProvider, MantineProvider } from '@mantine/core';
import type { i18n as I18n } from 'i18next';
import { type ReactNode, Suspense, useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { PageLoader } from '../components/page-loader.tsx';
import { applyDocumentLanguage, languageDir } from '../i18n/languages.ts';
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
  useDocumentLanguage(i18n);
  return (
    <DirectionProvider initialDirection={languageDir(i18n.language)} detectDirection>
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
    </DirectionProvider>
  );
}

/**
 * `<html lang dir>` follows the language: choosing Arabic mirrors the whole console at once (Mantine's
 * DirectionProvider watches the attribute, so menus and drawers open on the mirrored side too).
 */
function useDocumentLanguage(i18n: I18n) {
  useEffect(() => {
    applyDocumentLanguage(i18n.language);
    const onChange = (lng: string) => applyDocumentLanguage(lng);
    i18n.on('languageChanged', onChange);
    return () => i18n.off('languageChanged', onChange);
  }, [i18n]);
}
