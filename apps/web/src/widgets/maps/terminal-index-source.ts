import type { MapSite } from '@forecourt/contract/fleet';
import type { ClusterFeature } from './cluster-index.ts';
import {
  buildTerminalIndex,
  type CompanyMarker,
  indexZoom,
  markersInView,
  placedTerminals,
  toMarkers,
} from './map-rules.ts';
import type { IndexAnswer, IndexRequest } from './terminal-index.worker.ts';

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
function onPage(sites: MapSite[]): TerminalSource {
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

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One worker for the page, started with the first large map and kept (a map polls its data every few seconds). */
let shared: { worker: Worker; pending: Map<number, Pending>; loaded: Map<number, () => void> } | null = null;
let broken = false;
let nextId = 1;

function indexWorker() {
  if (shared) return shared;
  const worker = new Worker(new URL('./terminal-index.worker.ts', import.meta.url), {
    type: 'module',
    name: 'map-index',
  });
  const state = { worker, pending: new Map<number, Pending>(), loaded: new Map<number, () => void>() };
  worker.onmessage = (event: MessageEvent<IndexAnswer>) => {
    const m = event.data;
    if (m.type === 'loaded') {
      state.loaded.get(m.id)?.();
      state.loaded.delete(m.id);
      return;
    }
    const p = state.pending.get(m.req);
    state.pending.delete(m.req);
    if (m.type === 'answer') p?.resolve(m.value);
    else p?.reject(new Error(m.message));
  };
  // A worker that cannot start (a policy, an old browser): every index is built on the page from then on.
  worker.onerror = () => {
    broken = true;
    shared = null;
    worker.terminate();
    for (const p of state.pending.values()) p.reject(new Error('map index worker failed'));
    for (const fail of state.loaded.values()) fail();
  };
  shared = state;
  return state;
}

/**
 * The cluster index of `sites`' terminals. A large fleet's is built in a worker (one per page, shared by its maps),
 * so building it never holds the page's main thread: the map pans while it builds, and asks for what is in view
 * once it is there. A small fleet's, or every one where no worker starts, is built on the page.
 */
export function terminalSource(sites: MapSite[]): TerminalSource {
  const placed = placedTerminals(sites);
  if (placed.count < WORKER_FROM || broken || typeof Worker !== 'function') return onPage(sites);
  const { worker, pending, loaded } = indexWorker();
  const id = nextId++;
  let fallback: TerminalSource | null = null;
  /** Where the worker failed, the same index built on the page. */
  const local = () => {
    fallback ??= onPage(sites);
    return fallback;
  };
  let disposed = false;
  const ready = new Promise<void>((resolve) => loaded.set(id, resolve));
  // The page keeps what it reads back (site and terminal of each place); the worker takes the rest without a copy.
  const coords = placed.coords.slice();
  const severity = placed.severity.slice();
  worker.postMessage({ type: 'load', id, coords, severity, count: placed.count } satisfies IndexRequest, [
    coords.buffer,
    severity.buffer,
  ]);
  let nextReq = 1;
  const ask = async <T>(request: (req: number) => IndexRequest): Promise<T> => {
    await ready;
    if (disposed) throw new Error('disposed');
    const req = id * 1_000_000 + nextReq++;
    return new Promise<T>((resolve, reject) => {
      pending.set(req, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage(request(req));
    });
  };
  return {
    async markers(bbox, zoom) {
      await ready;
      if (broken) return local().markers(bbox, zoom);
      try {
        const features = await ask<ClusterFeature[]>((req) => ({
          type: 'clusters',
          id,
          req,
          bbox,
          zoom: indexZoom(zoom),
        }));
        return toMarkers(features, sites, placed);
      } catch (error) {
        if (broken && !disposed) return local().markers(bbox, zoom);
        throw error;
      }
    },
    async expansionZoom(clusterId) {
      await ready;
      if (broken) return local().expansionZoom(clusterId);
      return ask<number>((req) => ({ type: 'expansion', id, req, clusterId }));
    },
    dispose() {
      disposed = true;
      fallback?.dispose();
      if (!broken) worker.postMessage({ type: 'drop', id } satisfies IndexRequest);
      loaded.delete(id);
    },
  };
}
