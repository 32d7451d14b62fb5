import type { ForecastItem, WeatherResponse } from '@forecourt/contract/weather';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeMapSite } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { WEATHER_REFRESH_MS } from './api/get-weather.ts';
import { WeatherWidget } from './components/weather.tsx';
import { WeatherView } from './components/weather-view.tsx';
import { formatDegrees, weatherDays } from './weather-days.ts';

function item(
  dt: string,
  temp: number,
  extra: Partial<{
    min: number;
    max: number;
    icon: string;
    description: string;
    hum: number;
    wind: number;
  }> = {},
): ForecastItem {
  return {
    dt_txt: dt,
    main: { temp, temp_min: extra.min ?? temp, temp_max: extra.max ?? temp, humidity: extra.hum ?? 70 },
    weather: [
      { main: 'Clouds', description: extra.description ?? 'scattered clouds', icon: extra.icon ?? '03d' },
    ],
    wind: { speed: extra.wind ?? 14.4, deg: 200 },
  };
}

/** 2026-11-23 is a Monday. */
const LIST: ForecastItem[] = [
  item('2026-11-23 12:00:00', 11.6, {
    min: 10.2,
    max: 12.4,
    icon: '10d',
    description: 'light rain',
    hum: 81,
    wind: 19.6,
  }),
  item('2026-11-23 18:00:00', 8.4, { min: 7.6, max: 9 }),
  item('2026-11-24 09:00:00', 5.2),
  item('2026-11-24 15:00:00', 7.5, { icon: '01d', description: 'clear sky', hum: 55, wind: 8.2 }),
  item('2026-11-24 21:00:00', 3.1),
  // 25th missing entirely: a day inside the forecast range without a value
  item('2026-11-26 12:00:00', -0.4, { icon: '13d', description: 'snow' }),
  item('2026-11-27 15:00:00', 2.5),
  item('2026-11-28 15:00:00', 4),
];

describe('weatherDays', () => {
  it('takes the current entry for the first day and the 15:00 entry for later days, five days at most', () => {
    const days = weatherDays(LIST);
    expect(days.map((d) => d.date)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
    ]);
    expect(days[0]).toMatchObject({
      temp: 11.6,
      minTemp: 7.6,
      maxTemp: 12.4,
      hum: 81,
      wind: 19.6,
      icon: '10d',
    });
    expect(days[1]).toMatchObject({ temp: 7.5, minTemp: 3.1, maxTemp: 7.5, description: 'clear sky' });
    expect(days[2]).toMatchObject({ temp: null, icon: '' });
    expect(days[3]).toMatchObject({ temp: -0.4, description: 'snow' });
  });

  it('uses the entry nearest to 15:00 when there is none at 15:00', () => {
    const days = weatherDays([
      item('2026-11-23 00:00:00', 1),
      item('2026-11-24 12:00:00', 2),
      item('2026-11-24 21:00:00', 3),
    ]);
    expect(days[1].temp).toBe(2);
  });

  it('gives no day for an empty forecast and stops at the last day covered', () => {
    expect(weatherDays([])).toEqual([]);
    expect(weatherDays([item('2026-11-23 12:00:00', 1)]).map((d) => d.date)).toEqual(['2026-11-23']);
  });

  it('rounds to whole degrees and shows - when missing', () => {
    expect(formatDegrees(11.6)).toBe('12°');
    expect(formatDegrees(11.4)).toBe('11°');
    expect(formatDegrees(-0.4)).toBe('0°');
    expect(formatDegrees(-2.6)).toBe('-3°');
    expect(formatDegrees(null)).toBe('-');
  });
});

describe('WeatherView', () => {
  it('shows city, weekday, date, wind, humidity, icon, text and whole-degree temperatures of the first day', () => {
    renderWithProviders(<WeatherView city="Leeds" days={weatherDays(LIST)} />);
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByTestId('weather-city')).toHaveTextContent('Leeds');
    expect(within(panel).getByTestId('weather-weekday')).toHaveTextContent('Monday');
    expect(within(panel).getByTestId('weather-date')).toHaveTextContent('November 23, 2026');
    expect(within(panel).getByTestId('weather-wind')).toHaveTextContent('20 km/h');
    expect(within(panel).getByTestId('weather-humidity')).toHaveTextContent('81%');
    expect(within(panel).getByRole('img', { name: 'Light rain' })).toBeInTheDocument();
    expect(screen.getByTestId('weather-description')).toHaveTextContent('Light rain');
    expect(within(panel).getByTestId('weather-temp')).toHaveTextContent('12°');
    expect(within(panel).getByTestId('weather-minmax')).toHaveTextContent('8° / 12°');
  });

  it('has up to five day tabs with weekday, icon and temperature, and - for a missing one', () => {
    renderWithProviders(<WeatherView city="Leeds" days={weatherDays(LIST)} />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs).toHaveLength(5);
    expect(tabs.map((t) => t.textContent)).toEqual(['Mon12°', 'Tue8°', 'Wed-', 'Thu0°', 'Fri3°']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(tabs[0].querySelector('[data-icon="10d"]')).not.toBeNull();
    expect(tabs[2].querySelector('[data-icon]')).toBeNull();
  });

  it('switches the detail when a day is clicked', async () => {
    const { user } = renderWithProviders(<WeatherView city="Leeds" days={weatherDays(LIST)} />);
    await user.click(screen.getByRole('tab', { name: 'Tuesday 8°' }));
    expect(screen.getByRole('tab', { name: 'Tuesday 8°' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Monday 12°' })).toHaveAttribute('aria-selected', 'false');
    const panel = screen.getByRole('tabpanel', { name: 'Tuesday' });
    expect(within(panel).getByTestId('weather-weekday')).toHaveTextContent('Tuesday');
    expect(within(panel).getByTestId('weather-temp')).toHaveTextContent('8°');
    expect(within(panel).getByTestId('weather-wind')).toHaveTextContent('8 km/h');
    expect(within(panel).getByTestId('weather-humidity')).toHaveTextContent('55%');
    expect(screen.getByTestId('weather-description')).toHaveTextContent('Clear sky');

    await user.click(screen.getByRole('tab', { name: 'Wednesday -' }));
    const empty = screen.getByRole('tabpanel', { name: 'Wednesday' });
    expect(within(empty).getByTestId('weather-temp')).toHaveTextContent('-');
    expect(within(empty).getByTestId('weather-wind')).toHaveTextContent('-');
  });
});

function forecast(list = LIST): WeatherResponse {
  return { city: null, units: 'metric', list, fetched_at: '2026-11-23T12:00:00Z' };
}

const SITE = {
  id: 101,
  title: 'Leeds Road',
  number: '0101',
  company_id: 11,
  lat: 53.80081,
  lng: -1.54912,
  city: 'Leeds',
  timezone: 'Europe/London',
};

/** GET /api/config: the server reaches both services unless told otherwise. */
function config(reachable: Partial<{ weatherReachable: boolean; geocoderReachable: boolean }> = {}) {
  return json({
    tileUrlRoad: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
    tileUrlSatellite: 'http://127.0.0.1:9/s/{z}/{y}/{x}',
    tileRoadReachable: false,
    tileSatelliteReachable: false,
    weatherReachable: true,
    geocoderReachable: true,
    ...reachable,
  });
}

describe('WeatherWidget', () => {
  it("asks the server for the site's forecast and city, in a 220 px box", async () => {
    const fetch = mockFetch({
      'GET /api/config': config(),
      'GET /api/site/detail/101/': json(SITE),
      'GET /api/weather/': json(forecast()),
      'GET /api/geo/reverse/': json({ latitude: 53.8, longitude: -1.55, city: 'City of Leeds' }),
    });
    renderWithProviders(<WeatherWidget scope={{ kind: 'site', id: 101 }} />);
    const card = screen.getByRole('region', { name: 'Weather' });
    expect(card.style.height).toContain('13.75rem');
    expect(await within(card).findByText('City of Leeds')).toBeInTheDocument();
    expect(within(card).getAllByRole('tab')).toHaveLength(5);
    const [call] = fetch.find('GET', '/api/weather/');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ lat: '53.8', lng: '-1.55', units: 'metric' });
    expect(fetch.find('GET', '/api/geo/reverse/')).toHaveLength(1);
  });

  it('says clearly that the weather service is unavailable when the server answers 503', async () => {
    const fetch = mockFetch({
      'GET /api/config': config(),
      'GET /api/site/detail/101/': json(SITE),
      'GET /api/weather/': json({ data: { errors: ['Weather service is unavailable: fetch failed'] } }, 503),
      'GET /api/geo/reverse/': json({ data: { errors: ['Geocoding service is unavailable'] } }, 503),
    });
    renderWithProviders(<WeatherWidget scope={{ kind: 'site', id: 101 }} />);
    expect(await screen.findByText('The weather service is unavailable.')).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.queryByText('This widget could not load its data.')).not.toBeInTheDocument();
    // Shown at once: a 503 is not retried within the same refresh.
    expect(fetch.find('GET', '/api/weather/')).toHaveLength(1);
  });

  it('falls back to the site name when reverse geocoding fails', async () => {
    mockFetch({
      'GET /api/config': config(),
      'GET /api/site/detail/101/': json({ ...SITE, city: null }),
      'GET /api/weather/': json(forecast()),
      'GET /api/geo/reverse/': json({ data: { errors: ['Geocoding service is unavailable'] } }, 503),
    });
    renderWithProviders(<WeatherWidget scope={{ kind: 'site', id: 101 }} />);
    expect(await screen.findByText('Leeds Road')).toBeInTheDocument();
  });

  it("uses the first located site of a company's map", async () => {
    const fetch = mockFetch({
      'GET /api/config': config(),
      'GET /api/company/11/map/terminals/': json([
        makeMapSite(1, 'No terminals', '1'),
        makeMapSite(2, 'York', '2', [
          ['A', 53.9, -1.1, 'green'],
          ['B', 54.0, -1.0, 'red'],
        ]),
      ]),
      'GET /api/weather/': json(forecast()),
      'GET /api/geo/reverse/': json({ latitude: 53.95, longitude: -1.05, city: null }),
    });
    renderWithProviders(<WeatherWidget scope={{ kind: 'company', id: 11 }} />);
    expect(await screen.findByText('York')).toBeInTheDocument();
    const [call] = fetch.find('GET', '/api/weather/');
    expect(call.url.searchParams.get('lat')).toBe('53.95');
    expect(call.url.searchParams.get('lng')).toBe('-1.05');
  });

  it('says when the dashboard has no location', async () => {
    mockFetch({ 'GET /api/config': config(), 'GET /api/agent/7/map/terminals/': json([]) });
    renderWithProviders(<WeatherWidget scope={{ kind: 'agent', id: 7 }} />);
    expect(await screen.findByText('No location is known for this dashboard.')).toBeInTheDocument();
  });

  it('asks for no forecast when the server cannot reach the weather service, and says so with the place', async () => {
    const fetch = mockFetch({
      'GET /api/config': config({ weatherReachable: false }),
      'GET /api/site/detail/101/': json(SITE),
      'GET /api/weather/': json(forecast()),
      'GET /api/geo/reverse/': json({ latitude: 53.8, longitude: -1.55, city: 'City of Leeds' }),
    });
    renderWithProviders(<WeatherWidget scope={{ kind: 'site', id: 101 }} />);
    const card = screen.getByRole('region', { name: 'Weather' });
    const status = await within(card).findByTestId('weather-unreachable');
    expect(status).toHaveTextContent('The server cannot reach the weather service.');
    expect(status).toHaveTextContent('the server checks again every 10 minutes');
    expect(await within(card).findByText('City of Leeds')).toBeInTheDocument();
    expect(within(card).queryByRole('tab')).not.toBeInTheDocument();
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
    expect(fetch.find('GET', '/api/weather/')).toHaveLength(0);
  });

  it('asks for neither when the server reaches neither service, naming the place by its site', async () => {
    const fetch = mockFetch({
      'GET /api/config': config({ weatherReachable: false, geocoderReachable: false }),
      'GET /api/site/detail/101/': json({ ...SITE, city: null }),
    });
    renderWithProviders(<WeatherWidget scope={{ kind: 'site', id: 101 }} />);
    expect(await screen.findByTestId('weather-unreachable')).toBeInTheDocument();
    expect(screen.getByTestId('weather-city')).toHaveTextContent('Leeds Road');
    expect(fetch.find('GET', '/api/weather/')).toHaveLength(0);
    expect(fetch.find('GET', '/api/geo/reverse/')).toHaveLength(0);
  });

  it('shows the forecast without asking for a city when only the geocoder cannot be reached', async () => {
    const fetch = mockFetch({
      'GET /api/config': config({ geocoderReachable: false }),
      'GET /api/site/detail/101/': json(SITE),
      'GET /api/weather/': json(forecast()),
    });
    renderWithProviders(<WeatherWidget scope={{ kind: 'site', id: 101 }} />);
    expect(await screen.findAllByRole('tab')).toHaveLength(5);
    expect(screen.getByTestId('weather-city')).toHaveTextContent('Leeds');
    expect(fetch.find('GET', '/api/weather/')).toHaveLength(1);
    expect(fetch.find('GET', '/api/geo/reverse/')).toHaveLength(0);
    expect(screen.queryByTestId('weather-unreachable')).not.toBeInTheDocument();
  });

  it('asks as before when the settings cannot be read', async () => {
    const fetch = mockFetch({
      'GET /api/config': json({ data: { errors: ['down'] } }, 500),
      'GET /api/site/detail/101/': json(SITE),
      'GET /api/weather/': json(forecast()),
      'GET /api/geo/reverse/': json({ latitude: 53.8, longitude: -1.55, city: 'City of Leeds' }),
    });
    renderWithProviders(<WeatherWidget scope={{ kind: 'site', id: 101 }} />);
    // The settings are asked twice (one retry, a second apart) before the widget goes on without them.
    expect(await screen.findByText('City of Leeds', undefined, { timeout: 4_000 })).toBeInTheDocument();
    expect(fetch.find('GET', '/api/config')).toHaveLength(2);
    expect(fetch.find('GET', '/api/weather/')).toHaveLength(1);
  });

  it('reads the settings again with each forecast refresh, and shows the forecast once the service is back', async () => {
    // Real timers come back after each test (vitest.setup.ts).
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reachable = false;
    const fetch = mockFetch({
      'GET /api/config': () => config({ weatherReachable: reachable }),
      'GET /api/site/detail/101/': json(SITE),
      'GET /api/weather/': json(forecast()),
      'GET /api/geo/reverse/': json({ latitude: 53.8, longitude: -1.55, city: 'City of Leeds' }),
    });
    renderWithProviders(<WeatherWidget scope={{ kind: 'site', id: 101 }} />);
    expect(await screen.findByTestId('weather-unreachable')).toBeInTheDocument();
    reachable = true;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(WEATHER_REFRESH_MS);
    });
    expect(await screen.findAllByRole('tab')).toHaveLength(5);
    expect(screen.queryByTestId('weather-unreachable')).not.toBeInTheDocument();
    expect(fetch.find('GET', '/api/config')).toHaveLength(2);
    expect(fetch.find('GET', '/api/weather/')).toHaveLength(1);
  });
});
