import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from '../../../../components/link.tsx';
import { paths } from '../../../../config/paths.ts';

export function DashboardNotFound() {
  const { t } = useTranslation();
  return (
    <Center mih={240}>
      <Stack align="center" gap="xs">
        <Title order={1} fz="h3">
          {t('PAGE_NOT_FOUND')}
        </Title>
        <Text c="dimmed">{t('PAGE_NOT_FOUND_TEXT')}</Text>
        <Button component={Link} to={paths.agentDashboard} variant="light">
          {t('BACK_HOME')}
        </Button>
      </Stack>
    </Center>
  );
}
