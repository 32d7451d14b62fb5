import { Alert, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type ChartRange,
  customRangeError,
  fromLocalInput,
  RANGE_PRESETS,
  type RangePreset,
  resolveRange,
  toLocalInput,
} from './chart-range.ts';

const PRESET_LABEL: Record<RangePreset, string> = {
  '24h': 'TERMINAL_PAGE_RANGE_24H',
  '7d': 'TERMINAL_PAGE_RANGE_7D',
  '30d': 'TERMINAL_PAGE_RANGE_30D',
  '1y': 'TERMINAL_PAGE_RANGE_1Y',
};

export interface RangeBarProps {
  range: ChartRange;
  /** When a preset range was last read (its end). */
  anchor: number;
  /** The site's zone: the custom fields are in the site's time, like the charts. */
  timeZone?: string;
  /** A written description of the range shown ("27/11/2026 10:00 – 28/11/2026 10:00"). */
  description: string;
  onChange: (range: ChartRange) => void;
}

/** The charts' range: a preset ending now, or a custom one typed in (or dragged across a chart). */
export function RangeBar({ range, anchor, timeZone, description, onChange }: RangeBarProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(range.kind === 'custom');
  const shown = resolveRange(range, anchor);
  const [from, setFrom] = useState(() => toLocalInput(shown.from, timeZone));
  const [to, setTo] = useState(() => toLocalInput(shown.to, timeZone));
  const [error, setError] = useState<string | null>(null);

  // A range chosen elsewhere (a drag, the address) fills the fields.
  useEffect(() => {
    const r = resolveRange(range, anchor);
    setFrom(toLocalInput(r.from, timeZone));
    setTo(toLocalInput(r.to, timeZone));
    setError(null);
    if (range.kind === 'custom') setEditing(true);
  }, [range, anchor, timeZone]);

  const value = editing || range.kind === 'custom' ? 'custom' : range.preset;
  const pick = (next: string) => {
    if (next === 'custom') {
      setEditing(true);
      return;
    }
    setEditing(false);
    onChange({ kind: 'preset', preset: next as RangePreset });
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const f = fromLocalInput(from, timeZone);
    const tt = fromLocalInput(to, timeZone);
    const problem = customRangeError(f, tt);
    setError(problem);
    if (!problem) onChange({ kind: 'custom', from: f, to: tt });
  };

  return (
    <Stack gap="xs" data-testid="range-bar">
      <Group gap="sm" wrap="wrap" align="center">
        <SegmentedControl
          aria-label={t('TERMINAL_PAGE_RANGE')}
          value={value}
          onChange={pick}
          data={[
            ...RANGE_PRESETS.map((p) => ({ value: p, label: t(PRESET_LABEL[p]) })),
            { value: 'custom', label: t('TERMINAL_PAGE_RANGE_CUSTOM') },
          ]}
        />
        <Text size="sm" c="dimmed" data-testid="range-shown">
          {description}
        </Text>
      </Group>
      {value === 'custom' && (
        <form onSubmit={apply} aria-label={t('TERMINAL_PAGE_RANGE_CUSTOM')}>
          <Group gap="sm" align="flex-end" wrap="wrap">
            {(
              [
                ['TERMINAL_PAGE_RANGE_FROM', from, setFrom],
                ['TERMINAL_PAGE_RANGE_TO', to, setTo],
              ] as const
            ).map(([label, value, set]) => (
              <TextInput
                key={label}
                type="datetime-local"
                label={t(label)}
                value={value}
                onChange={(e) => set(e.currentTarget.value)}
                size="sm"
              />
            ))}
            <Button type="submit" size="sm" variant="light">
              {t('TERMINAL_PAGE_RANGE_APPLY')}
            </Button>
          </Group>
          {timeZone && (
            <Text size="xs" c="dimmed" mt={4}>
              {t('TERMINAL_PAGE_RANGE_ZONE', { zone: timeZone })}
            </Text>
          )}
          {error && (
            <Alert color="red" variant="light" mt="xs" role="alert" p="xs">
              {t(error)}
            </Alert>
          )}
        </form>
      )}
      <Text size="xs" c="dimmed">
        {t('TERMINAL_PAGE_ZOOM_HINT')}
      </Text>
    </Stack>
  );
}
