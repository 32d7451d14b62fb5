import { Anchor, Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { LanguagePicker } from '../../../components/language-picker.tsx';
import { Link } from '../../../components/link.tsx';
import { Logo } from '../../../components/logo.tsx';
import { ThemeSwitch } from '../../../components/theme-switch.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';

/** The frame of the sign-in screens: logo, language and theme on top, one card in the middle. */
export function AuthLayout() {
  const { t } = useTranslation();
  return (
    <Box className="fc-auth" mih="100dvh" p={{ base: 'sm', sm: 'xl' }}>
      <Group justify="space-between" mb="lg" maw={520} mx="auto" wrap="nowrap">
        <Anchor component={Link} to="/auth/login" underline="never" c="inherit" aria-label={t('APP_NAME')}>
          <Logo size={30} />
        </Anchor>
        <Group gap="xs" wrap="nowrap">
          <ThemeSwitch size="sm" compact />
          <LanguagePicker />
        </Group>
      </Group>
      <Center>
        <Paper
          component="main"
          withBorder
          shadow="sm"
          p={{ base: 'lg', sm: 40 }}
          w="100%"
          maw={520}
          radius="lg"
        >
          <Outlet />
        </Paper>
      </Center>
    </Box>
  );
}

/** Title and subtitle at the top of every auth screen; the title names the browser tab too. */
export function AuthHeading({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Stack gap={6} align="center" mb="lg">
      <Title order={1} fz={28} ta="center">
        {title}
      </Title>
      {subtitle && (
        <Text c="dimmed" ta="center" size="sm">
          {subtitle}
        </Text>
      )}
    </Stack>
  );
}
