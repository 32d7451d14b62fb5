import type { MapSite } from '@forecourt/contract/fleet';
import { buildTerminalIndex, type CompanyMarker, markersInView, placedTerminals } from './map-rules.ts';

/** From this many placed terminals the index is built in a worker (below, building it takes a few ms). */
export const WORKER_FROM = 5_000;

/** The company map's terminals, clustered: asked per viewport, answered when the index is ready. */
export interface TerminalSource {
  markers(bbox: [number, number, number, number], zoom: number): Promise<CompanyMarker[]>;
  /** The zoom at which a cluster falls apart. */
  expansionZoom(clusterId: number): Promise<number>;
  /** Frees the index; answers still due are dropped. */
  dispose(): void;
}

/** The index built on the page: a small fleet, or where no worker can run. */
export function onPage(sites: MapSite[]): TerminalSource {
  let index: ReturnType<typeof buildTerminalIndex> | null = null;
  const built = () => {
    index ??= buildTerminalIndex(sites);
    return index;
  };
  return {
    markers: async (bbox, zoom) => markersInView(built(), bbox, zoom),
    expansionZoom: async (clusterId) => built().clusters.getClusterExpansionZoom(clusterId),
    dispose: () => {
      index = null;
    },
  };
}

/** Set once the map's worker has failed (terminal-index-worker-client.ts). */
let workerFailed = false;

/**
 * The cluster index of `sites`' terminals. A large fleet's is built in a worker (one per page, shared by its maps),
 * so building it never holds the page's main thread: the map pans while it builds, and asks for what is in view
 * once it is there. A small fleet's, or every one where no worker starts, is built on the page. The worker's side
 * is a chunk of its own, fetched with the first large fleet only.
 */
export function terminalSource(sites: MapSite[]): TerminalSource {
  const placed = placedTerminals(sites);
  if (placed.count < WORKER_FROM || workerFailed || typeof Worker !== 'function') return onPage(sites);
  let disposed = false;
  const inner = import('./terminal-index-worker-client.ts').then(
    (client) => {
      if (client.workerBroken()) workerFailed = true;
      const source = workerFailed ? onPage(sites) : client.workerSource(sites, placed, onPage);
      if (disposed) source.dispose();
      return source;
    },
    () => onPage(sites),
  );
  return {
    markers: (bbox, zoom) => inner.then((source) => source.markers(bbox, zoom)),
    expansionZoom: (clusterId) => inner.then((source) => source.expansionZoom(clusterId)),
    dispose: () => {
      disposed = true;
      void inner.then((source) => source.dispose());
    },
  };
}
