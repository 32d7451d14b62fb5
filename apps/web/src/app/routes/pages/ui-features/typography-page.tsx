import { Blockquote, Card, Code, Group, Kbd, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { UiFeaturePage } from './ui-feature-page.tsx';

const LEVELS = ['green', 'yellow', 'orange', 'red'] as const;

export default function TypographyPage() {
  const { t } = useTranslation();
  return (
    <UiFeaturePage title={t('UI_TYPOGRAPHY')} intro={t('UI_TYPOGRAPHY_TEXT')}>
      <Card>
        <Stack gap="xs">
          {([1, 2, 3, 4, 5, 6] as const).map((order) => (
            <Title key={order} order={order}>
              Heading {order}
            </Title>
          ))}
        </Stack>
      </Card>
      <Card>
        <Stack gap="xs">
          {(['xl', 'lg', 'md', 'sm', 'xs'] as const).map((size) => (
            <Text key={size} size={size}>
              {size}: Forecourt watches terminals, pumps and connectivity across every site.
            </Text>
          ))}
          <Text c="dimmed">Dimmed text for secondary details.</Text>
          <Group gap="xs">
            <Code>POLLING_DELAY_MS = 12500</Code>
            <Kbd>Ctrl</Kbd> + <Kbd>K</Kbd>
          </Group>
          <Blockquote color="brand">Counts are zero-padded to 3 digits: 007 / 024.</Blockquote>
        </Stack>
      </Card>
      <Card>
        <Title order={2} fz="md" mb="sm">
          Status colours
        </Title>
        <Group>
          {LEVELS.map((level) => (
            <Text key={level} fw={700} c={`var(--fc-level-${level})`}>
              {level}
            </Text>
          ))}
          <Text fw={700} c="var(--fc-status-ok)">
            {t('NO_ERRORS')}
          </Text>
        </Group>
      </Card>
    </UiFeaturePage>
  );
}
