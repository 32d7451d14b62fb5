import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstReadsDrawn } from '../../lib/first-view-gate.ts';
import { makeMapSite } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { CompanyMapCanvas } from './components/leaflet-maps.tsx';
import { AerialMapWidget, CompanyMapWidget } from './components/map-widgets.tsx';

// jsdom lays nothing out: give elements a size so Leaflet has a viewport to draw markers in.
const sizes = ['clientWidth', 'clientHeight'] as const;
const saved = sizes.map((k) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, k));
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 600 });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 400 });
});
afterAll(() => {
  sizes.forEach((k, i) => {
    const d = saved[i];
    if (d) Object.defineProperty(HTMLElement.prototype, k, d);
  });
});

const CONFIG = {
  tileUrlRoad: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
  tileUrlSatellite: 'http://127.0.0.1:9/s/{z}/{y}/{x}',
  tileRoadReachable: true,
  tileSatelliteReachable: true,
  weatherReachable: true,
  geocoderReachable: true,
};

// First in the file: once a map has asked for Leaflet, later maps ask at once (the module remembers it).
describe('Leaflet and the first view', () => {
  it('is not asked for until the first reads have been drawn', async () => {
    mockFetch({
      'GET /api/config': json(CONFIG),
      'GET /api/company/11/map/terminals/': json([
        makeMapSite(1, 'Leeds Road', '0101', [['0101-1', 53.8, -1.5, 'green']]),
      ]),
    });
    firstReadsDrawn.set(false);
    try {
      renderWithProviders(<CompanyMapWidget scope={{ kind: 'company', id: 11 }} />);
      const card = screen.getByRole('region', { name: 'Active terminals' });
      // The data is there, the map's box says it is loading, and stays so until the first reads are drawn.
      await waitFor(() => expect(card.querySelector('.fc-map-placeholder')).not.toBeNull());
      const marker = { name: 'Leeds Road (0101), terminal 0101-1: online' };
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(within(card).queryByRole('button', marker)).toBeNull();
      expect(card.querySelector('.fc-map-placeholder')).not.toBeNull();
      firstReadsDrawn.set(true);
      expect(await within(card).findByRole('button', marker)).toHaveClass('fc-marker-green');
    } finally {
      firstReadsDrawn.set(true);
    }
  });
});

describe('CompanyMapWidget', () => {
  it('draws the terminals of the company, clusters coloured by their worst state', async () => {
    const fetch = mockFetch({
      'GET /api/config': json(CONFIG),
      'GET /api/company/11/map/terminals/': json([
        makeMapSite(1, 'Leeds Road', '0101', [
          ['0101-1', 53.8, -1.5, 'green'],
          ['0101-2', 53.8001, -1.5001, 'red'],
        ]),
      ]),
    });
    renderWithProviders(<CompanyMapWidget scope={{ kind: 'company', id: 11 }} />);
    const card = screen.getByRole('region', { name: 'Active terminals' });
    const cluster = await within(card).findByRole('button', { name: '2 terminals, worst state: offline' });
    expect(cluster).toHaveClass('fc-cluster', 'fc-marker-red');
    expect(cluster).toHaveTextContent('2');
    expect(fetch.find('GET', '/api/company/11/map/terminals/')).toHaveLength(1);
    // Clicking a cluster zooms in until its terminals show one by one.
    cluster.click();
    expect(
      await within(card).findByRole('button', { name: 'Leeds Road (0101), terminal 0101-2: offline' }),
    ).toHaveClass('fc-marker-red');
    expect(
      within(card).getByRole('button', { name: 'Leeds Road (0101), terminal 0101-1: online' }),
    ).toHaveClass('fc-marker-green');
  });

  it('shows a hostile site title in the tooltip as text, never as HTML', async () => {
    const title = '<img src="x" data-xss="1">Leeds';
    mockFetch({
      'GET /api/config': json(CONFIG),
      'GET /api/company/11/map/terminals/': json([
        makeMapSite(1, title, '0101', [['0101-1', 53.8, -1.5, 'green']]),
      ]),
    });
    renderWithProviders(<CompanyMapWidget scope={{ kind: 'company', id: 11 }} />);
    const card = screen.getByRole('region', { name: 'Active terminals' });
    const pin = await within(card).findByRole('button', { name: `${title} (0101), terminal 0101-1: online` });
    fireEvent.mouseOver(pin);
    const tooltip = await waitFor(() => {
      const el = document.querySelector('.leaflet-tooltip');
      expect(el).not.toBeNull();
      return el as HTMLElement;
    });
    expect(tooltip).toHaveTextContent(`${title} (0101), terminal 0101-1: online`);
    expect(document.querySelector('[data-xss]')).toBeNull();
  });

  it('uses the agent endpoint for an agent and still draws markers when the settings cannot be read', async () => {
    mockFetch({
      'GET /api/config': json({ data: { errors: ['down'] } }, 500),
      'GET /api/agent/7/map/terminals/': json([
        makeMapSite(1, 'York', '0007', [['7-1', 53.96, -1.08, 'yellow']]),
      ]),
    });
    renderWithProviders(<CompanyMapWidget scope={{ kind: 'agent', id: 7 }} />);
    // The settings are asked for twice (one retry) before the map is drawn without tiles.
    expect(await screen.findByRole('button', { name: 'York (0007), terminal 7-1: unknown' })).toHaveClass(
      'fc-marker-yellow',
    );
    expect(await screen.findByText('Map tiles are unavailable')).toBeInTheDocument();
  });

  it('requests no tile at all when the server could not reach the tile server, and says so', async () => {
    const images: string[] = [];
    const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src');
    Object.defineProperty(HTMLImageElement.prototype, 'src', {
      configurable: true,
      set(value: string) {
        images.push(value);
        src?.set?.call(this, value);
      },
      get() {
        return src?.get?.call(this);
      },
    });
    try {
      mockFetch({
        'GET /api/config': json({ ...CONFIG, tileRoadReachable: false }),
        'GET /api/company/11/map/terminals/': json([
          makeMapSite(1, 'York', '0007', [['7-1', 53.96, -1.08, 'green']]),
        ]),
      });
      renderWithProviders(<CompanyMapWidget scope={{ kind: 'company', id: 11 }} />);
      expect(await screen.findByRole('button', { name: 'York (0007), terminal 7-1: online' })).toBeVisible();
      expect(await screen.findByText('Map tiles are unavailable')).toBeInTheDocument();
      expect(images.filter((u) => u.includes('127.0.0.1:9'))).toEqual([]);
    } finally {
      if (src) Object.defineProperty(HTMLImageElement.prototype, 'src', src);
    }
  });

  it('shows the error state when the terminals cannot be loaded', async () => {
    mockFetch({
      'GET /api/config': json(CONFIG),
      'GET /api/company/11/map/terminals/': json({ data: { errors: ['Forbidden'] } }, 403),
    });
    renderWithProviders(<CompanyMapWidget scope={{ kind: 'company', id: 11 }} />);
    expect(await screen.findByText('This widget could not load its data.')).toBeInTheDocument();
  });
});

describe('AerialMapWidget', () => {
  it("draws the site's terminals green on, red off, yellow otherwise", async () => {
    mockFetch({
      'GET /api/config': json(CONFIG),
      'GET /api/site/101/map/terminals/': json([
        { id: 1, terminal_id: '0101-1', lat: 53.8, lng: -1.5, connectivity: 'on' },
        { id: 2, terminal_id: '0101-2', lat: 53.8001, lng: -1.5001, connectivity: 'off' },
        { id: 3, terminal_id: '0101-3', lat: 53.8002, lng: -1.5002, connectivity: 'unknown' },
      ]),
    });
    renderWithProviders(<AerialMapWidget scope={{ kind: 'site', id: 101 }} />);
    const card = screen.getByRole('region', { name: 'Aerial map' });
    expect(await within(card).findByRole('button', { name: 'Terminal 0101-1: online' })).toHaveClass(
      'fc-marker-green',
    );
    expect(within(card).getByRole('button', { name: 'Terminal 0101-2: offline' })).toHaveClass(
      'fc-marker-red',
    );
    expect(within(card).getByRole('button', { name: 'Terminal 0101-3: unknown' })).toHaveClass(
      'fc-marker-yellow',
    );
    const canvas = within(card).getByTestId('aerial-map-canvas');
    await waitFor(() => expect(canvas.querySelector('.leaflet-tile-pane')).not.toBeNull());
  });

  it('says so when no terminal has a position', async () => {
    mockFetch({ 'GET /api/config': json(CONFIG), 'GET /api/site/101/map/terminals/': json([]) });
    renderWithProviders(<AerialMapWidget scope={{ kind: 'site', id: 101 }} />);
    expect(await screen.findByText('No terminal of this site has a known position.')).toBeInTheDocument();
  });
});

describe('CompanyMapCanvas', () => {
  const sites = (second: 'green' | 'red') => [
    makeMapSite(1, 'Leeds Road', '0101', [['0101-1', 53.8, -1.5, 'green']]),
    makeMapSite(2, 'York', '0102', [['0102-1', 53.96, -1.08, second]]),
  ];

  it('updates markers in place when a poll brings new data: unchanged ones stay, changed ones are redrawn', async () => {
    const { rerender } = renderWithProviders(<CompanyMapCanvas sites={sites('green')} tileUrl={null} />);
    const leeds = await screen.findByRole('button', { name: 'Leeds Road (0101), terminal 0101-1: online' });
    expect(screen.getByRole('button', { name: 'York (0102), terminal 0102-1: online' })).toHaveClass(
      'fc-marker-green',
    );
    rerender(<CompanyMapCanvas sites={sites('red')} tileUrl={null} />);
    expect(await screen.findByRole('button', { name: 'York (0102), terminal 0102-1: offline' })).toHaveClass(
      'fc-marker-red',
    );
    expect(screen.getByRole('button', { name: 'Leeds Road (0101), terminal 0101-1: online' })).toBe(leeds);
    expect(screen.getByText('Map tiles are unavailable')).toBeInTheDocument();
  });
});
