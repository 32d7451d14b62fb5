import type { MapSite, SiteMapTerminal } from '@forecourt/contract/fleet';
import {
  AERIAL_MAP_ZOOM,
  asMarkerColor,
  COMPANY_MAP_ZOOM,
  LONDON,
  type MarkerColor,
  markerColor,
} from '@forecourt/contract/rules';
import {
  CLUSTER_MAX_ZOOM,
  type ClusterFeature,
  type ClusterIndex,
  type ClusterSummary,
  clusterIndex,
  type IndexedPoint,
} from './cluster-index.ts';

export { CLUSTER_MAX_ZOOM };
export type LatLngTuple = [lat: number, lng: number];

/** Drawn colours of the three marker states (on, off, anything else). */
export const MARKER_FILL: Record<MarkerColor, string> = {
  green: '#00b887',
  red: '#ff3d71',
  yellow: '#ffaa00',
};

/** How bad a state is: a cluster takes the colour of its worst terminal (off, then unknown, then on). */
export const SEVERITY: Record<MarkerColor, number> = { green: 0, yellow: 1, red: 2 };
const BY_SEVERITY: MarkerColor[] = ['green', 'yellow', 'red'];

export function worstColor(colors: Iterable<MarkerColor>): MarkerColor {
  let worst = 0;
  for (const c of colors) worst = Math.max(worst, SEVERITY[c] ?? SEVERITY.yellow);
  return BY_SEVERITY[worst];
}

/** A coordinate that can be drawn (the API may carry 0/0 or missing positions for unplaced terminals). */
export function isPlaced(lat: number, lng: number): boolean {
  return (
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lng) <= 180 &&
    !(lat === 0 && lng === 0)
  );
}

export type MapView =
  | { kind: 'center'; center: LatLngTuple; zoom: number }
  | { kind: 'bounds'; bounds: [LatLngTuple, LatLngTuple] };

function centroid(points: LatLngTuple[]): LatLngTuple {
  const lat = points.reduce((a, p) => a + p[0], 0) / points.length;
  const lng = points.reduce((a, p) => a + p[1], 0) / points.length;
  return [lat, lng];
}

/**
 * Where the company map looks: London at zoom 9 without any placed terminal; the one site at zoom 9
 * when there is only one; otherwise every site in view.
 */
export function companyMapView(sites: MapSite[]): MapView {
  // One pass without a list of points: this runs on every new answer, 100,000 terminals included.
  let located = 0;
  let first: LatLngTuple | null = null;
  let s = 90;
  let w = 180;
  let n = -90;
  let e = -180;
  for (const site of sites) {
    let count = 0;
    let lat = 0;
    let lng = 0;
    for (const t of site.terminals) {
      if (!isPlaced(t.lat, t.lng)) continue;
      count++;
      lat += t.lat;
      lng += t.lng;
      if (t.lat < s) s = t.lat;
      if (t.lat > n) n = t.lat;
      if (t.lng < w) w = t.lng;
      if (t.lng > e) e = t.lng;
    }
    if (count === 0) continue;
    located++;
    if (located === 1) first = [lat / count, lng / count];
  }
  if (located === 0 || !first) return { kind: 'center', center: LONDON, zoom: COMPANY_MAP_ZOOM };
  if (located === 1) return { kind: 'center', center: first, zoom: COMPANY_MAP_ZOOM };
  if (s === n && w === e) return { kind: 'center', center: [s, w], zoom: COMPANY_MAP_ZOOM };
  return {
    kind: 'bounds',
    bounds: [
      [s, w],
      [n, e],
    ],
  };
}

/** The aerial map: the site's terminals at zoom 18 (London when none is placed). */
export function aerialMapView(terminals: SiteMapTerminal[]): { center: LatLngTuple; zoom: number } {
  const placed = terminals.filter((t) => isPlaced(t.lat, t.lng)).map((t): LatLngTuple => [t.lat, t.lng]);
  return { center: placed.length ? centroid(placed) : LONDON, zoom: AERIAL_MAP_ZOOM };
}

export interface AerialMarker {
  id: number;
  terminalId: string;
  lat: number;
  lng: number;
  color: MarkerColor;
}

/** The site's terminals as markers: on green, off red, anything else yellow (contract rule). */
export function aerialMarkers(terminals: SiteMapTerminal[]): AerialMarker[] {
  return terminals
    .filter((t) => isPlaced(t.lat, t.lng))
    .map((t) => ({
      id: t.id,
      terminalId: t.terminal_id,
      lat: t.lat,
      lng: t.lng,
      color: markerColor(t.connectivity),
    }));
}

export interface TerminalPoint {
  /** Unique within the map: site id and terminal number. */
  key: string;
  terminalId: string;
  siteId: number;
  siteTitle: string;
  siteNo: string;
  color: MarkerColor;
}
export type { ClusterSummary };

/**
 * Every placed terminal of the answer, flat: position (longitude, latitude in pairs), severity, and where it is in
 * the answer (site and terminal index), so that the cluster index can be built away from the page (a worker takes
 * typed arrays without copying) and a terminal's details are read only for those drawn.
 */
export interface PlacedTerminals {
  count: number;
  coords: Float64Array;
  severity: Uint8Array;
  site: Uint32Array;
  terminal: Uint32Array;
}

export function placedTerminals(sites: MapSite[]): PlacedTerminals {
  let total = 0;
  for (const site of sites) total += site.terminals.length;
  const coords = new Float64Array(total * 2);
  const severity = new Uint8Array(total);
  const siteOf = new Uint32Array(total);
  const terminalOf = new Uint32Array(total);
  let n = 0;
  for (let s = 0; s < sites.length; s++) {
    const terminals = (sites[s] as MapSite).terminals;
    for (let k = 0; k < terminals.length; k++) {
      const t = terminals[k] as MapSite['terminals'][number];
      if (!isPlaced(t.lat, t.lng)) continue;
      coords[2 * n] = t.lng;
      coords[2 * n + 1] = t.lat;
      severity[n] = SEVERITY[asMarkerColor(t.marker_color)];
      siteOf[n] = s;
      terminalOf[n] = k;
      n++;
    }
  }
  return {
    count: n,
    coords: coords.subarray(0, 2 * n),
    severity: severity.subarray(0, n),
    site: siteOf.subarray(0, n),
    terminal: terminalOf.subarray(0, n),
  };
}

/** The terminal at place `i` of `placed`, as a marker shows it. */
export function terminalPoint(sites: MapSite[], placed: PlacedTerminals, i: number): TerminalPoint {
  const site = sites[placed.site[i] as number] as MapSite;
  const t = site.terminals[placed.terminal[i] as number] as MapSite['terminals'][number];
  return {
    key: `${site.id}:${t.terminal_id}`,
    terminalId: t.terminal_id,
    siteId: site.id,
    siteTitle: site.site_title,
    siteNo: site.site_no,
    color: asMarkerColor(t.marker_color),
  };
}

/** The cluster index of every placed terminal, built on the page; each cluster keeps the worst state inside it. */
export interface TerminalIndex {
  sites: MapSite[];
  placed: PlacedTerminals;
  clusters: ClusterIndex;
}

export function buildTerminalIndex(sites: MapSite[], radius = 60): TerminalIndex {
  const placed = placedTerminals(sites);
  return { sites, placed, clusters: clusterIndex(placed.coords, placed.severity, placed.count, radius) };
}

export interface ClusterMarker {
  kind: 'cluster';
  key: string;
  clusterId: number;
  lat: number;
  lng: number;
  count: number;
  color: MarkerColor;
  off: number;
}
export interface PointMarker {
  kind: 'point';
  key: string;
  lat: number;
  lng: number;
  point: TerminalPoint;
}
export type CompanyMarker = ClusterMarker | PointMarker;

/** The zoom the index is asked at for a map zoom. */
export const indexZoom = (zoom: number) => Math.max(0, Math.min(Math.round(zoom), CLUSTER_MAX_ZOOM + 1));

/** The index's answer for a viewport as markers: clusters and single terminals. */
export function toMarkers(
  features: ClusterFeature[],
  sites: MapSite[],
  placed: PlacedTerminals,
): CompanyMarker[] {
  return features.map((f) => {
    const [lng, lat] = f.geometry.coordinates as [number, number];
    const props = f.properties as Partial<
      ClusterSummary & IndexedPoint & { cluster: boolean; cluster_id: number; point_count: number }
    >;
    if (props.cluster) {
      return {
        kind: 'cluster',
        key: `c${props.cluster_id}`,
        clusterId: props.cluster_id as number,
        lat,
        lng,
        count: props.point_count as number,
        color: BY_SEVERITY[props.worst ?? 0] as MarkerColor,
        off: props.off ?? 0,
      };
    }
    const point = terminalPoint(sites, placed, props.i as number);
    return { kind: 'point', key: `p${point.key}`, lat, lng, point };
  });
}

/** What to draw for a viewport ([west, south, east, north]) at a zoom: clusters and single terminals. */
export function markersInView(
  index: TerminalIndex,
  bbox: [number, number, number, number],
  zoom: number,
): CompanyMarker[] {
  return toMarkers(index.clusters.getClusters(bbox, indexZoom(zoom)), index.sites, index.placed);
}

/** Cluster bubble size by how many terminals it holds. */
export function clusterSize(count: number): number {
  if (count < 10) return 30;
  if (count < 100) return 36;
  if (count < 1000) return 42;
  return 48;
}
