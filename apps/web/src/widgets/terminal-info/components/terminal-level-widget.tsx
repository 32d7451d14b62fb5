import { levelColor, levelImage } from '@forecourt/contract/rules';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../../components/link.tsx';
import { TerminalLink } from '../../../components/terminal-link.tsx';
import { WidgetCard, type WidgetCardProps } from '../../../components/widget-card.tsx';
import { useCarousel } from '../../../lib/use-carousel.ts';
import { LevelImage } from './level-image.tsx';

export interface TerminalLevel {
  percent: number | null;
  terminalId: string;
  /** The terminal's row id and site: its number links to its page. */
  terminalRowId?: number;
  siteId?: number;
  customer: string;
  siteNumber: string;
}

export interface TerminalLevelWidgetProps {
  title: string;
  info: { title: string; description: string };
  /** Label of the percentage (BATTERY_LIFE, FLASDRIVE_LIFE), already translated. */
  lifeLabel: string;
  items: TerminalLevel[];
  state: Pick<WidgetCardProps, 'loading' | 'error' | 'onRetry' | 'updatedAt'>;
  logPath: string;
  logLabel: string;
  /** Box height in px. @default 300 */
  height?: number;
  testId?: string;
}

/** Battery and flash drive: one terminal at a time with its level image, percentage and Prev/Next. */
export function TerminalLevelWidget(props: TerminalLevelWidgetProps) {
  const { t } = useTranslation();
  const { items } = props;
  const cursor = useCarousel(items.map((i) => i.terminalId));
  const item = items[cursor.index];
  const percent = item?.percent ?? null;
  const color = levelColor(percent);
  return (
    <WidgetCard
      title={props.title}
      info={props.info}
      {...props.state}
      empty={items.length === 0}
      emptyMessage={t('NO_TERMINAL_INFORMATION')}
      height={props.height ?? 300}
      data-testid={props.testId}
      footer={
        <Anchor component={Link} to={props.logPath} size="xs">
          {props.logLabel}
        </Anchor>
      }
    >
      {item && (
        <Stack gap={8}>
          <Group wrap="nowrap" gap="md" align="center">
            <LevelImage level={levelImage(percent)} color={color} />
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text
                fz={30}
                fw={700}
                lh={1.1}
                c={color ? `var(--fc-level-${color})` : undefined}
                data-color={color ?? 'none'}
                data-testid="level-percent"
              >
                {percent === null ? '-' : `${Math.round(percent)}%`}
              </Text>
              <Text size="xs" c="dimmed">
                {props.lifeLabel}
              </Text>
            </Stack>
          </Group>
          <Stack gap={0}>
            <Field label={t('CUSTOMER')} value={item.customer} />
            <Field label={t('SITE_NUMBER')} value={item.siteNumber} />
            <Field
              label={t('TERMINAL_ID')}
              value={
                item.terminalId && (
                  <TerminalLink siteId={item.siteId} terminalId={item.terminalRowId} fw={500}>
                    {item.terminalId}
                  </TerminalLink>
                )
              }
              testId="terminal-id"
            />
          </Stack>
          <Group justify="space-between" gap="xs">
            <Button size="compact-sm" variant="default" onClick={cursor.prev} aria-label={t('PREV')}>
              {t('PREV')}
            </Button>
            <Text size="xs" c="dimmed">
              {cursor.index + 1} / {items.length}
            </Text>
            <Button size="compact-sm" variant="default" onClick={cursor.next} aria-label={t('NEXT')}>
              {t('NEXT')}
            </Button>
          </Group>
        </Stack>
      )}
    </WidgetCard>
  );
}

function Field({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="xs" c="dimmed" w="6.5rem" style={{ flex: 'none' }}>
        {label}
      </Text>
      <Text size="sm" fw={500} truncate data-testid={testId}>
        {value || '-'}
      </Text>
    </Group>
  );
}
