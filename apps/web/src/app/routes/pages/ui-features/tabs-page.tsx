import { Accordion, Card, Tabs, Text } from '@mantine/core';
import { IconClock, IconGasStation, IconMap2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { UiFeaturePage } from './ui-feature-page.tsx';

export default function TabsPage() {
  const { t } = useTranslation();
  return (
    <UiFeaturePage title={t('UI_TABS')} intro={t('UI_TABS_TEXT')}>
      <Card>
        <Tabs defaultValue="pumps">
          <Tabs.List>
            <Tabs.Tab value="pumps" leftSection={<IconGasStation size={16} />}>
              Pumps
            </Tabs.Tab>
            <Tabs.Tab value="map" leftSection={<IconMap2 size={16} />}>
              Map
            </Tabs.Tab>
            <Tabs.Tab value="time" leftSection={<IconClock size={16} />}>
              Local time
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="pumps" pt="sm">
            <Text size="sm">Pump tiles switch on and off with a vertical slider.</Text>
          </Tabs.Panel>
          <Tabs.Panel value="map" pt="sm">
            <Text size="sm">Terminals on a road or satellite map.</Text>
          </Tabs.Panel>
          <Tabs.Panel value="time" pt="sm">
            <Text size="sm">A clock per time zone, ticking every second.</Text>
          </Tabs.Panel>
        </Tabs>
      </Card>
      <Card>
        <Accordion variant="separated">
          {['1', '2', '3'].map((key) => (
            <Accordion.Item key={key} value={key}>
              <Accordion.Control>Pump {key}</Accordion.Control>
              <Accordion.Panel>
                <Text size="sm">Only one panel is open at a time; clicking the open one closes it.</Text>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </Card>
    </UiFeaturePage>
  );
}
