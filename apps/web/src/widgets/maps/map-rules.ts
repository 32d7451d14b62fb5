import type { MapSite, SiteMapTerminal } from '@forecourt/contract/fleet';
import {
  AERIAL_MAP_ZOOM,
  asMarkerColor,
  COMPANY_MAP_ZOOM,
  LONDON,
  type MarkerColor,
  markerColor,
} from '@forecourt/contract/rules';
import Supercluster from 'supercluster';

export type LatLngTuple = [lat: number, lng: number];
/** Beyond this zoom the company map shows every terminal on its own. */
export const CLUSTER_MAX_ZOOM = 16;

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

function bounds(points: LatLngTuple[]): [LatLngTuple, LatLngTuple] {
  let s = 90;
  let w = 180;
  let n = -90;
  let e = -180;
  for (const [lat, lng] of points) {
    s = Math.min(s, lat);
    n = Math.max(n, lat);
    w = Math.min(w, lng);
    e = Math.max(e, lng);
  }
  return [
    [s, w],
    [n, e],
  ];
}

/**
 * Where the company map looks: London at zoom 9 without any placed terminal; the one site at zoom 9
 * when there is only one; otherwise every site in view.
 */
export function companyMapView(sites: MapSite[]): MapView {
  const located = sites
    .map((s) => s.terminals.filter((t) => isPlaced(t.lat, t.lng)).map((t): LatLngTuple => [t.lat, t.lng]))
    .filter((points) => points.length > 0);
  if (located.length === 0) return { kind: 'center', center: LONDON, zoom: COMPANY_MAP_ZOOM };
  if (located.length === 1) return { kind: 'center', center: centroid(located[0]), zoom: COMPANY_MAP_ZOOM };
  const all = located.flat();
  const [sw, ne] = bounds(all);
  if (sw[0] === ne[0] && sw[1] === ne[1]) return { kind: 'center', center: sw, zoom: COMPANY_MAP_ZOOM };
  return { kind: 'bounds', bounds: [sw, ne] };
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
export interface ClusterSummary {
  /** Worst state inside, as a severity (SEVERITY). */
  worst: number;
  /** Terminals off inside. */
  off: number;
}

export type TerminalIndex = Supercluster<TerminalPoint, ClusterSummary>;

/** Build the cluster index of every placed terminal; each cluster keeps the worst state inside it. */
export function buildTerminalIndex(sites: MapSite[], radius = 60): TerminalIndex {
  const features: GeoJSON.Feature<GeoJSON.Point, TerminalPoint>[] = [];
  for (const site of sites) {
    for (const t of site.terminals) {
      if (!isPlaced(t.lat, t.lng)) continue;
      features.push({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [t.lng, t.lat] },
        properties: {
          key: `${site.id}:${t.terminal_id}`,
          terminalId: t.terminal_id,
          siteId: site.id,
          siteTitle: site.site_title,
          siteNo: site.site_no,
          color: asMarkerColor(t.marker_color),
        },
      });
    }
  }
  const index = new Supercluster<TerminalPoint, ClusterSummary>({
    radius,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: (p) => ({ worst: SEVERITY[p.color], off: p.color === 'red' ? 1 : 0 }),
    reduce: (acc, p) => {
      acc.worst = Math.max(acc.worst, p.worst);
      acc.off += p.off;
    },
  });
  index.load(features);
  return index;
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

/** What to draw for a viewport ([west, south, east, north]) at a zoom: clusters and single terminals. */
export function markersInView(
  index: TerminalIndex,
  bbox: [number, number, number, number],
  zoom: number,
): CompanyMarker[] {
  const z = Math.max(0, Math.min(Math.round(zoom), CLUSTER_MAX_ZOOM + 1));
  return index.getClusters(bbox, z).map((f) => {
    const [lng, lat] = f.geometry.coordinates;
    const props = f.properties as Partial<
      ClusterSummary & { cluster: boolean; cluster_id: number; point_count: number }
    >;
    if (props.cluster) {
      return {
        kind: 'cluster',
        key: `c${props.cluster_id}`,
        clusterId: props.cluster_id as number,
        lat,
        lng,
        count: props.point_count as number,
        color: BY_SEVERITY[props.worst ?? 0],
        off: props.off ?? 0,
      };
    }
    const point = f.properties as TerminalPoint;
    return { kind: 'point', key: `p${point.key}`, lat, lng, point };
  });
}

/** Cluster bubble size by how many terminals it holds. */
export function clusterSize(count: number): number {
  if (count < 10) return 30;
  if (count < 100) return 36;
  if (count < 1000) return 42;
  return 48;
}
