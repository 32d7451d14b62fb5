import type { MapSite } from '@forecourt/contract/fleet';
import { AERIAL_MAP_ZOOM, COMPANY_MAP_ZOOM, LONDON } from '@forecourt/contract/rules';
import { describe, expect, it } from 'vitest';
import {
  aerialMapView,
  aerialMarkers,
  buildTerminalIndex,
  companyMapView,
  markersInView,
  worstColor,
} from './map-rules.ts';

const WORLD: [number, number, number, number] = [-180, -85, 180, 85];

function site(id: number, terminals: [number, number, 'green' | 'red' | 'yellow'][]): MapSite {
  return {
    id,
    site_title: `Site ${id}`,
    site_no: String(id).padStart(4, '0'),
    terminals: terminals.map(([lat, lng, marker_color], i) => ({
      terminal_id: `${id}-${i + 1}`,
      lat,
      lng,
      marker_color,
    })),
  };
}

describe('marker colours', () => {
  it('colours aerial markers green on, red off, yellow for anything else', () => {
    const markers = aerialMarkers([
      { id: 1, terminal_id: 'A', lat: 53.8, lng: -1.5, connectivity: 'on' },
      { id: 2, terminal_id: 'B', lat: 53.8, lng: -1.5, connectivity: 'off' },
      { id: 3, terminal_id: 'C', lat: 53.8, lng: -1.5, connectivity: 'rebooting' },
      { id: 4, terminal_id: 'D', lat: 53.8, lng: -1.5, connectivity: '' },
    ]);
    expect(markers.map((m) => m.color)).toEqual(['green', 'red', 'yellow', 'yellow']);
  });

  it('leaves out terminals without a position', () => {
    expect(aerialMarkers([{ id: 1, terminal_id: 'A', lat: 0, lng: 0, connectivity: 'on' }])).toEqual([]);
  });

  it('takes the worst state: off over unknown over on', () => {
    expect(worstColor(['green', 'green'])).toBe('green');
    expect(worstColor(['green', 'yellow', 'green'])).toBe('yellow');
    expect(worstColor(['yellow', 'red', 'green'])).toBe('red');
    expect(worstColor([])).toBe('green');
  });
});

describe('map views and zoom rules', () => {
  it('centres the company map on London at zoom 9 without sites', () => {
    expect(companyMapView([])).toEqual({ kind: 'center', center: LONDON, zoom: 9 });
    expect(companyMapView([site(1, [])])).toEqual({ kind: 'center', center: LONDON, zoom: COMPANY_MAP_ZOOM });
  });

  it('resets to zoom 9 on the one site when there is only one', () => {
    const view = companyMapView([
      site(1, [
        [53.8, -1.5, 'green'],
        [53.82, -1.52, 'red'],
      ]),
      site(2, []),
    ]);
    expect(view.kind).toBe('center');
    if (view.kind !== 'center') return;
    expect(view.zoom).toBe(9);
    expect(view.center[0]).toBeCloseTo(53.81);
    expect(view.center[1]).toBeCloseTo(-1.51);
  });

  it('fits every site in view when there are several', () => {
    const view = companyMapView([site(1, [[53.8, -1.5, 'green']]), site(2, [[51.5, -0.1, 'green']])]);
    expect(view).toEqual({
      kind: 'bounds',
      bounds: [
        [51.5, -1.5],
        [53.8, -0.1],
      ],
    });
  });

  it('shows the aerial map at zoom 18 on the centre of the site terminals', () => {
    const view = aerialMapView([
      { id: 1, terminal_id: 'A', lat: 53.8, lng: -1.5, connectivity: 'on' },
      { id: 2, terminal_id: 'B', lat: 53.8002, lng: -1.5002, connectivity: 'off' },
    ]);
    expect(view.zoom).toBe(AERIAL_MAP_ZOOM);
    expect(view.zoom).toBe(18);
    expect(view.center[0]).toBeCloseTo(53.8001, 5);
    expect(aerialMapView([]).center).toEqual(LONDON);
  });
});

describe('clusters', () => {
  const leeds = site(1, [
    [53.8, -1.5, 'green'],
    [53.8001, -1.5001, 'green'],
    [53.8002, -1.5002, 'yellow'],
  ]);
  const london = site(2, [
    [51.5, -0.1, 'green'],
    [51.5001, -0.1001, 'red'],
  ]);

  it('groups nearby terminals and colours each cluster by the worst state inside it', () => {
    const index = buildTerminalIndex([leeds, london]);
    const markers = markersInView(index, WORLD, 6);
    expect(markers).toHaveLength(2);
    const byCount = Object.fromEntries(markers.map((m) => [m.kind === 'cluster' ? m.count : 1, m]));
    expect(byCount[3]).toMatchObject({ kind: 'cluster', color: 'yellow', off: 0 });
    expect(byCount[2]).toMatchObject({ kind: 'cluster', color: 'red', off: 1 });
  });

  it('shows every terminal on its own when zoomed in far enough', () => {
    const index = buildTerminalIndex([leeds, london]);
    const markers = markersInView(index, WORLD, 20);
    expect(markers).toHaveLength(5);
    expect(markers.every((m) => m.kind === 'point')).toBe(true);
    const colours = markers.map((m) => (m.kind === 'point' ? m.point.color : null)).sort();
    expect(colours).toEqual(['green', 'green', 'green', 'red', 'yellow']);
  });

  it('draws only what is in view', () => {
    const index = buildTerminalIndex([leeds, london]);
    const aroundLondon: [number, number, number, number] = [-0.5, 51.3, 0.3, 51.7];
    const markers = markersInView(index, aroundLondon, 20);
    expect(markers).toHaveLength(2);
  });

  it('keeps 10,000 terminals to a few hundred markers at the company zoom', () => {
    const sites: MapSite[] = [];
    let seed = 7;
    const rand = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let s = 0; s < 2500; s++) {
      const lat = 50 + rand() * 5;
      const lng = -5 + rand() * 6;
      sites.push(
        site(
          s + 1,
          Array.from({ length: 4 }, (_, i) => [
            lat + i * 0.0001,
            lng,
            i === 3 && s % 50 === 0 ? 'red' : 'green',
          ]),
        ),
      );
    }
    const index = buildTerminalIndex(sites);
    const markers = markersInView(index, WORLD, 6);
    const total = markers.reduce((n, m) => n + (m.kind === 'cluster' ? m.count : 1), 0);
    expect(total).toBe(10_000);
    expect(markers.length).toBeLessThan(300);
    const red = markers.filter((m) => m.kind === 'cluster' && m.off > 0);
    expect(red.length).toBeGreaterThan(0);
    expect(red.every((m) => m.kind === 'cluster' && m.color === 'red')).toBe(true);
  });
});
