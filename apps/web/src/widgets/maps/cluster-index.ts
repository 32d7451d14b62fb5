import Supercluster from 'supercluster';

/** Beyond this zoom the company map shows every terminal on its own. */
export const CLUSTER_MAX_ZOOM = 16;

/** What a single terminal carries in the index: its place in the flat list, and how bad its state is. */
export interface IndexedPoint {
  i: number;
  s: number;
}
export interface ClusterSummary {
  /** Worst state inside, as a severity (map-rules.ts SEVERITY). */
  worst: number;
  /** Terminals off inside. */
  off: number;
}
export type ClusterIndex = Supercluster<IndexedPoint, ClusterSummary>;
/** What `getClusters` answers: a cluster (with its summary) or one terminal. */
export type ClusterFeature = ReturnType<ClusterIndex['getClusters']>[number];

/** The severity of an offline terminal (map-rules.ts SEVERITY.red). */
const OFF = 2;

/**
 * The cluster index of `count` terminals: `coords` their longitude and latitude in pairs, `severity` each one's
 * state. Each cluster keeps the worst state inside it and how many are off. Runs on the page for a small fleet
 * and in the map's worker (terminal-index.worker.ts) for a large one: this module imports nothing else.
 */
export function clusterIndex(
  coords: Float64Array,
  severity: Uint8Array,
  count: number,
  radius = 60,
): ClusterIndex {
  const features: GeoJSON.Feature<GeoJSON.Point, IndexedPoint>[] = new Array(count);
  for (let i = 0; i < count; i++) {
    features[i] = {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [coords[2 * i] as number, coords[2 * i + 1] as number] },
      properties: { i, s: severity[i] as number },
    };
  }
  const index = new Supercluster<IndexedPoint, ClusterSummary>({
    radius,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: (p) => ({ worst: p.s, off: p.s === OFF ? 1 : 0 }),
    reduce: (acc, p) => {
      acc.worst = Math.max(acc.worst, p.worst);
      acc.off += p.off;
    },
  });
  index.load(features);
  return index;
}
