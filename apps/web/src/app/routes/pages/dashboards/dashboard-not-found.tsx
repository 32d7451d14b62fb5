import { Button, Center, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../../../components/link.tsx';
import { paths } from '../../../../config/paths.ts';

/** Nothing here: a title and a line, centred, and what to do instead (a button, if any). */
export function NothingHere({
  title,
  text,
  children,
}: {
  title: string;
  text: string;
  children?: ReactNode;
}) {
  return (
    <Center mih={240}>
      <Stack align="center" gap="xs">
        <Title order={1} fz="h3">
          {title}
        </Title>
        <Text c="dimmed">{text}</Text>
        {children}
      </Stack>
    </Center>
  );
}

export function DashboardNotFound() {
  const { t } = useTranslation();
  return (
    <NothingHere title={t('PAGE_NOT_FOUND')} text={t('PAGE_NOT_FOUND_TEXT')}>
      <Button component={Link} to={paths.agentDashboard} variant="light">
        {t('BACK_HOME')}
      </Button>
    </NothingHere>
  );
}
