import { ActionIcon, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconBell, IconPower, IconRefresh, IconSettings, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { UiFeaturePage } from './ui-feature-page.tsx';

const VARIANTS = ['filled', 'light', 'outline', 'subtle', 'default'] as const;
const COLORS = ['brand', 'teal', 'yellow', 'red', 'gray'] as const;

export default function ButtonsPage() {
  const { t } = useTranslation();
  return (
    <UiFeaturePage title={t('UI_BUTTONS')} intro={t('UI_BUTTONS_TEXT')}>
      <Card>
        <Title order={2} fz="md" mb="sm">
          Variants
        </Title>
        <Group>
          {VARIANTS.map((variant) => (
            <Button key={variant} variant={variant}>
              {variant}
            </Button>
          ))}
          <Button variant="gradient" gradient={{ from: 'brand.4', to: 'brand.7', deg: 135 }}>
            gradient
          </Button>
        </Group>
      </Card>
      <Card>
        <Title order={2} fz="md" mb="sm">
          Colours
        </Title>
        <Stack gap="sm">
          {COLORS.map((color) => (
            <Group key={color}>
              {VARIANTS.slice(0, 4).map((variant) => (
                <Button key={variant} color={color} variant={variant} size="xs">
                  {color}
                </Button>
              ))}
            </Group>
          ))}
        </Stack>
      </Card>
      <Card>
        <Title order={2} fz="md" mb="sm">
          Sizes and states
        </Title>
        <Group align="center">
          {(['xs', 'sm', 'md', 'lg', 'xl'] as const).map((size) => (
            <Button key={size} size={size}>
              {size}
            </Button>
          ))}
          <Button disabled>disabled</Button>
          <Button loading>loading</Button>
          <Button leftSection={<IconRefresh size={16} />}>{t('RETRY')}</Button>
        </Group>
      </Card>
      <Card>
        <Title order={2} fz="md" mb="sm">
          Icon buttons
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Every icon button carries an accessible name.
        </Text>
        <Group>
          <ActionIcon variant="subtle" aria-label={t('NOTIFICATIONS')}>
            <IconBell size={18} />
          </ActionIcon>
          <ActionIcon variant="light" aria-label={t('SETTINGS')}>
            <IconSettings size={18} />
          </ActionIcon>
          <ActionIcon variant="filled" color="teal" aria-label="Power">
            <IconPower size={18} />
          </ActionIcon>
          <ActionIcon variant="outline" color="red" aria-label="Delete">
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      </Card>
    </UiFeaturePage>
  );
}
