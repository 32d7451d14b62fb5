import type { MapSite } from '@forecourt/contract/fleet';
import type { ClusterFeature } from './cluster-index.ts';
import { indexZoom, type PlacedTerminals, toMarkers } from './map-rules.ts';
import type { IndexAnswer, IndexRequest } from './terminal-index.worker.ts';
import type { TerminalSource } from './terminal-index-source.ts';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One worker for the page, started with the first large map and kept (a map polls its data every few seconds). */
let shared: { worker: Worker; pending: Map<number, Pending>; loaded: Map<number, () => void> } | null = null;
/** Set once the worker failed to start or run: every index is built on the page from then on. */
let broken = false;
export const workerBroken = () => broken;
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

/** The index of `placed` built in the page's map worker; `onPage` builds it on the page where the worker fails. */
export function workerSource(
  sites: MapSite[],
  placed: PlacedTerminals,
  onPage: (sites: MapSite[]) => TerminalSource,
): TerminalSource {
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
