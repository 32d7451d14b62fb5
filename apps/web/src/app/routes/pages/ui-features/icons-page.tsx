import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBattery3,
  IconBell,
  IconBuildingStore,
  IconClock,
  IconDeviceDesktop,
  IconDroplet,
  IconGasStation,
  IconInfoCircle,
  IconLifebuoy,
  IconMail,
  IconMap2,
  IconPower,
  IconRefresh,
  IconSearch,
  IconSettings,
  IconTemperature,
  IconUsb,
  IconWifi,
  IconWifiOff,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { UiFeaturePage } from './ui-feature-page.tsx';

const ICONS = [
  ['gas-station', IconGasStation],
  ['building-store', IconBuildingStore],
  ['device-desktop', IconDeviceDesktop],
  ['wifi', IconWifi],
  ['wifi-off', IconWifiOff],
  ['power', IconPower],
  ['refresh', IconRefresh],
  ['battery-3', IconBattery3],
  ['usb', IconUsb],
  ['temperature', IconTemperature],
  ['droplet', IconDroplet],
  ['alert-triangle', IconAlertTriangle],
  ['map-2', IconMap2],
  ['clock', IconClock],
  ['lifebuoy', IconLifebuoy],
  ['bell', IconBell],
  ['mail', IconMail],
  ['search', IconSearch],
  ['settings', IconSettings],
  ['info-circle', IconInfoCircle],
] as const;

export default function IconsPage() {
  const { t } = useTranslation();
  return (
    <UiFeaturePage title={t('UI_ICONS')} intro={t('UI_ICONS_TEXT')}>
      <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, lg: 6 }}>
        {ICONS.map(([name, Icon]) => (
          <Card key={name} padding="md">
            <Stack align="center" gap={6}>
              <Icon size={28} stroke={1.6} color="var(--mantine-primary-color-filled)" aria-hidden />
              <Text size="xs" c="dimmed">
                {name}
              </Text>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </UiFeaturePage>
  );
}
