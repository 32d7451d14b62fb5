import { Center, Stack, Text } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import type { Scope } from '../../../lib/scope.ts';
import {
  useWeatherPlace,
  useWeatherServices,
  type WeatherPlace,
  weatherQueries,
} from '../api/get-weather.ts';
import { weatherDays } from '../weather-days.ts';
import classes from './weather.module.css';
import { WeatherView } from './weather-view.tsx';

/** Box height of the weather widget (docs/product.md#common-to-every-widget). */
export const WEATHER_HEIGHT = 220;

export interface WeatherWidgetProps {
  /** Whose weather: a site's coordinates, or a company's or agent's first located site. */
  scope: Scope;
}

/** The provider could not be reached (503), or the server could not be: the service is unavailable. */
function isServiceUnavailable(error: unknown): boolean {
  return isApiError(error) && (error.status === 503 || error.kind === 'network');
}

/** A cloud crossed out, what is wrong and a hint: the forecast's place when there is no forecast. */
function NoForecast({ title, hint, iconSize }: { title: string; hint: string; iconSize: number }) {
  return (
    <>
      <IconCloudOff size={iconSize} color="var(--mantine-color-dimmed)" aria-hidden />
      <Text size="sm" ta="center" fw={600}>
        {title}
      </Text>
      <Text size="xs" c="dimmed" ta="center">
        {hint}
      </Text>
    </>
  );
}

function ServiceUnavailable() {
  const { t } = useTranslation();
  return (
    <Center h="100%" mih={100} role="status" data-testid="weather-unavailable">
      <Stack align="center" gap={6}>
        <NoForecast title={t('WEATHER_UNAVAILABLE')} hint={t('WEATHER_UNAVAILABLE_HINT')} iconSize={26} />
      </Stack>
    </Center>
  );
}

/** The server cannot reach the weather provider (`/api/config`): the place, and why there is no forecast. */
function ServiceUnreachable({ city }: { city: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} className={classes.root}>
      <Text fw={700} size="sm" truncate data-testid="weather-city">
        {city}
      </Text>
      {/* Auto margins centre the message without pushing it over the place when the text is long. */}
      <Stack align="center" gap={4} my="auto" role="status" data-testid="weather-unreachable">
        <NoForecast title={t('WEATHER_UNREACHABLE')} hint={t('WEATHER_UNREACHABLE_HINT')} iconSize={24} />
      </Stack>
    </Stack>
  );
}

const placeholder: WeatherPlace = { lat: 0, lng: 0, name: '' };

/** Weather forecast of the dashboard's place, through the server's weather and reverse-geocoding API. */
export function WeatherWidget({ scope }: WeatherWidgetProps) {
  const { t } = useTranslation();
  const { place, query: placeQuery } = useWeatherPlace(scope);
  const at = place ?? placeholder;
  const services = useWeatherServices();
  const weather = useQuery({
    ...weatherQueries.forecast(at.lat, at.lng),
    enabled: place !== null && services.weather,
  });
  const geo = useQuery({
    ...weatherQueries.place(at.lat, at.lng),
    enabled: place !== null && services.geocoder,
  });

  const info = { title: t('WEATHER'), description: t('WEATHER_INFO') };
  const common = {
    title: t('WEATHER'),
    info,
    height: WEATHER_HEIGHT,
    className: classes.box,
    'data-testid': 'weather',
  };

  if (placeQuery.isPending || placeQuery.isError || !place) {
    return (
      <WidgetCard
        {...common}
        {...widgetQueryState(placeQuery)}
        empty={!placeQuery.isPending && !placeQuery.isError && !place}
        emptyMessage={t('WEATHER_NO_LOCATION')}
      />
    );
  }
  if (!services.settled) return <WidgetCard {...common} loading />;
  if (!services.weather && weather.data === undefined) {
    return (
      <WidgetCard {...common}>
        <ServiceUnreachable city={geo.data?.city || place.name} />
      </WidgetCard>
    );
  }
  const unavailable = weather.isError && weather.data === undefined && isServiceUnavailable(weather.error);
  const state = widgetQueryState(weather);
  const days = weather.data ? weatherDays(weather.data.list) : [];
  const city = geo.data?.city || weather.data?.city || place.name;
  return (
    <WidgetCard
      {...common}
      {...state}
      error={unavailable ? undefined : state.error}
      empty={weather.data !== undefined && days.length === 0}
      emptyMessage={t('WEATHER_NO_FORECAST')}
    >
      {unavailable ? <ServiceUnavailable /> : <WeatherView city={city} days={days} />}
    </WidgetCard>
  );
}
