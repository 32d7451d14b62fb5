import { Anchor, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from './link.tsx';

/** "Back to dashboard" above a screen's title (the arrow turns in right-to-left languages). */
export function BackToDashboard({ to }: { to: string }) {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={to} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} className="mantine-rotate-rtl" />
        {t('LOG_BACK_TO_DASHBOARD')}
      </Group>
    </Anchor>
  );
}

/** A screen's title with "Back to dashboard" above it and, below, what it shows (`children`). */
export function BackTitle({ to, title, children }: { to: string; title: string; children?: ReactNode }) {
  return (
    <Stack gap={4}>
      <BackToDashboard to={to} />
      <Title order={1} fz="h2">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
