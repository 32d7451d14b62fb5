import { capitalize } from '@forecourt/contract/formatters';
import { Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconDroplet, IconWind } from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDegrees, longDateOf, type WeatherDay, weekdayOf } from '../weather-days.ts';
import classes from './weather.module.css';
import { WeatherIcon } from './weather-icon.tsx';

export interface WeatherViewProps {
  /** City shown above the detail. */
  city: string;
  days: WeatherDay[];
}

const orDash = (v: number | null, unit: string) => (v === null ? '-' : `${Math.round(v)}${unit}`);

/** The forecast: detail of the selected day and up to five day tabs; the first day starts selected. */
export function WeatherView({ city, days }: WeatherViewProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language || 'en';
  const [selected, setSelected] = useState(0);
  const panelId = useId();
  const first = days[0]?.date;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a forecast for other dates starts at its first day again
  useEffect(() => setSelected(0), [first]);
  const day = days[Math.min(selected, days.length - 1)];
  if (!day) return null;
  const description = capitalize(day.description) || '-';
  return (
    <Stack gap={6} className={classes.root}>
      <Group
        justify="space-between"
        wrap="nowrap"
        gap="xs"
        role="tabpanel"
        id={panelId}
        aria-label={weekdayOf(day.date, lang)}
      >
        <Stack gap={0} miw={0}>
          <Text fw={700} size="sm" truncate data-testid="weather-city">
            {city}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            <span data-testid="weather-weekday">{weekdayOf(day.date, lang)}</span>,{' '}
            <span data-testid="weather-date">{longDateOf(day.date, lang)}</span>
          </Text>
          <Group gap={8} mt={2} wrap="nowrap">
            <Text size="xs" c="dimmed" className={classes.fact} title={t('WEATHER_WIND')}>
              <IconWind size={13} aria-hidden />
              <span data-testid="weather-wind">{orDash(day.wind, ' km/h')}</span>
            </Text>
            <Text size="xs" c="dimmed" className={classes.fact} title={t('WEATHER_HUMIDITY')}>
              <IconDroplet size={13} aria-hidden />
              <span data-testid="weather-humidity">{orDash(day.hum, '%')}</span>
            </Text>
          </Group>
        </Stack>
        <Group gap={6} wrap="nowrap">
          <WeatherIcon code={day.icon} label={description} size={34} />
          <Stack gap={0} align="flex-end">
            <Text fw={700} fz={26} lh={1.1} data-testid="weather-temp" title={t('WEATHER_CURRENT')}>
              {formatDegrees(day.temp)}
            </Text>
            <Text size="xs" c="dimmed" data-testid="weather-minmax">
              <span title={t('WEATHER_MIN')}>{formatDegrees(day.minTemp)}</span>
              {' / '}
              <span title={t('WEATHER_MAX')}>{formatDegrees(day.maxTemp)}</span>
            </Text>
          </Stack>
        </Group>
      </Group>
      <Text size="xs" data-testid="weather-description" truncate>
        {description}
      </Text>
      <Box role="tablist" aria-label={t('WEATHER_DAYS')} className={classes.tabs}>
        {days.map((d, i) => {
          const weekday = weekdayOf(d.date, lang, true);
          const temp = formatDegrees(d.temp);
          return (
            <UnstyledButton
              key={d.date}
              role="tab"
              aria-selected={i === selected}
              aria-controls={panelId}
              aria-label={`${weekdayOf(d.date, lang)} ${temp}`}
              className={classes.tab}
              data-active={i === selected || undefined}
              onClick={() => setSelected(i)}
            >
              <Text size="xs" fw={600} lh={1.2}>
                {weekday}
              </Text>
              <Box h={20} className={classes.tabIcon}>
                <WeatherIcon code={d.icon} size={18} />
              </Box>
              <Text size="xs" lh={1.2} data-testid="weather-tab-temp">
                {temp}
              </Text>
            </UnstyledButton>
          );
        })}
      </Box>
    </Stack>
  );
}
