import { Alert, Button, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ErrorBoundary } from '../../components/error-boundary.tsx';

/** A page that throws shows this instead, inside the frame; moving to another page clears it. */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <ErrorBoundary
      resetKeys={[location.pathname]}
      fallback={(error, reset) => (
        <Alert color="red" title={t('OH_SNAP')} role="alert" m="md">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{error instanceof Error ? error.message : t('NETWORK_FAILED')}</Text>
            <Button size="xs" variant="light" color="red" onClick={reset}>
              {t('RETRY')}
            </Button>
          </Stack>
        </Alert>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
