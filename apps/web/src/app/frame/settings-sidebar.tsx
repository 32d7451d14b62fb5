import {
  Card,
  Divider,
  Drawer,
  Group,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconBuildingStore,
  IconCircleCheck,
  IconColumns1,
  IconColumns2,
  IconColumns3,
  IconDeviceDesktop,
  IconLayoutAlignCenter,
  IconLayoutSidebar,
  IconLayoutSidebarRight,
  IconServer,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from '../../components/language-picker.tsx';
import { ThemeSwitch } from '../../components/theme-switch.tsx';
import {
  type LayoutId,
  type LayoutOption,
  type SidebarId,
  selectLayout,
  selectSidebar,
  useLayout,
  withSelection,
} from '../../lib/layout-store.ts';

const LAYOUTS: Omit<LayoutOption<LayoutId>, 'selected'>[] = [
  { id: 'one-column', name: 'ONE_COLUMN', icon: 'columns-1' },
  { id: 'two-column', name: 'TWO_COLUMN', icon: 'columns-2' },
  { id: 'three-column', name: 'THREE_COLUMN', icon: 'columns-3' },
  { id: 'center-column', name: 'CENTER_COLUMN', icon: 'align-center' },
];
const SIDEBARS: Omit<LayoutOption<SidebarId>, 'selected'>[] = [
  { id: 'left', name: 'SIDEBAR_LEFT', icon: 'sidebar-left' },
  { id: 'right', name: 'SIDEBAR_RIGHT', icon: 'sidebar-right' },
];
const ICONS = {
  'columns-1': IconColumns1,
  'columns-2': IconColumns2,
  'columns-3': IconColumns3,
  'align-center': IconLayoutAlignCenter,
  'sidebar-left': IconLayoutSidebar,
  'sidebar-right': IconLayoutSidebarRight,
} as const;

/** Four hard-coded status cards: not live data. */
const STATUS_CARDS = [
  { label: 'COMPANIES', Icon: IconUsersGroup },
  { label: 'SITES', Icon: IconBuildingStore },
  { label: 'TERMINALS', Icon: IconDeviceDesktop },
  { label: 'OTHER', Icon: IconServer },
];

function OptionGroup<T extends string>(props: {
  label: string;
  options: LayoutOption<T>[];
  onSelect: (id: T) => void;
}) {
  const { t } = useTranslation();
  const value = props.options.find((o) => o.selected)?.id;
  return (
    <Radio.Group label={props.label} value={value} onChange={(v) => props.onSelect(v as T)}>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
        {props.options.map((option) => {
          const Icon = ICONS[option.icon as keyof typeof ICONS];
          return (
            <Radio.Card key={option.id} value={option.id} radius="md" p="sm" className="fc-option-card">
              <Group wrap="nowrap" gap="sm">
                <Radio.Indicator />
                {/* The sidebar sides are the reading start and end: right to left, 'left' is drawn on the right. */}
                <Icon
                  size={20}
                  aria-hidden
                  className={option.icon.startsWith('sidebar-') ? 'mantine-rotate-rtl' : undefined}
                />
                <Text size="sm" fw={600}>
                  {t(option.name)}
                </Text>
              </Group>
            </Radio.Card>
          );
        })}
      </SimpleGrid>
    </Radio.Group>
  );
}

export interface SettingsSidebarProps {
  opened: boolean;
  onClose: () => void;
}

/** Collapsed at start; 50% wide when open. Layout, sidebar side, theme, language, status cards. */
export function SettingsSidebar({ opened, onClose }: SettingsSidebarProps) {
  const { t } = useTranslation();
  const { layout, sidebar } = useLayout();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      // Mantine lays drawers out with flex: 'right' is the reading end, so Arabic opens it on the left.
      position="right"
      size="50%"
      title={
        <Title order={2} fz="lg">
          {t('SETTINGS')}
        </Title>
      }
      closeButtonProps={{ 'aria-label': t('CLOSE_SETTINGS') }}
      classNames={{ content: 'fc-settings' }}
    >
      <Stack gap="lg">
        <OptionGroup label={t('LAYOUT')} options={withSelection(LAYOUTS, layout)} onSelect={selectLayout} />
        <OptionGroup
          label={t('SIDEBAR')}
          options={withSelection(SIDEBARS, sidebar)}
          onSelect={selectSidebar}
        />
        <Divider />
        <Group justify="space-between" wrap="wrap" gap="md">
          <Stack gap={6}>
            <Text size="xs" fw={600}>
              {t('THEME')}
            </Text>
            <ThemeSwitch />
          </Stack>
          <LanguagePicker withLabel />
        </Group>
        <Divider />
        <section aria-label={t('STATUS')}>
          <Text size="sm" fw={500} mb="xs">
            {t('STATUS')}
          </Text>
          <SimpleGrid cols={2} spacing="sm" h={390} className="fc-status-cards">
            {STATUS_CARDS.map(({ label, Icon }) => (
              <Card key={label} padding="md" className="fc-status-card">
                <Stack justify="space-between" h="100%">
                  <ThemeIcon variant="light" size={44} radius="md">
                    <Icon size={24} />
                  </ThemeIcon>
                  <div>
                    <Text fw={700}>{t(label)}</Text>
                    <Group gap={6} mt={4}>
                      <IconCircleCheck size={16} color="var(--fc-status-ok)" aria-hidden />
                      <Text size="sm" c="dimmed">
                        {t('NO_ERRORS')}
                      </Text>
                    </Group>
                  </div>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        </section>
      </Stack>
    </Drawer>
  );
}
