import { Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '../../../lib/auth/session-calls.ts';

/** Calls logout, then goes to the login page whatever the result. */
export function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut().finally(() => navigate('/auth/login', { replace: true }));
  }, [navigate]);

  return (
    <Stack align="center" gap="md" py="xl" role="status">
      <Loader />
      <Text>{t('LOGGING_OUT')}</Text>
    </Stack>
  );
}
