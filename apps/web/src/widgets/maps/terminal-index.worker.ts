// The company map's cluster index, built and asked away from the page (terminal-index-source.ts): building it for
// 100,000 terminals takes the better part of a second, which on the page would stall panning and drawing.
import { type ClusterIndex, clusterIndex } from './cluster-index.ts';

export type IndexRequest =
  | { type: 'load'; id: number; coords: Float64Array; severity: Uint8Array; count: number }
  | { type: 'clusters'; id: number; req: number; bbox: [number, number, number, number]; zoom: number }
  | { type: 'expansion'; id: number; req: number; clusterId: number }
  | { type: 'drop'; id: number };

export type IndexAnswer =
  | { type: 'loaded'; id: number }
  | { type: 'answer'; req: number; value: unknown }
  | { type: 'failed'; req: number; message: string };

const indexes = new Map<number, ClusterIndex>();
// Typed by hand: the console's TypeScript program has the DOM's declarations, not the worker's.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<IndexRequest>) => void) | null;
  postMessage(message: IndexAnswer): void;
};

scope.onmessage = (event) => {
  const m = event.data;
  if (m.type === 'load') {
    indexes.set(m.id, clusterIndex(m.coords, m.severity, m.count));
    scope.postMessage({ type: 'loaded', id: m.id } satisfies IndexAnswer);
    return;
  }
  if (m.type === 'drop') {
    indexes.delete(m.id);
    return;
  }
  const index = indexes.get(m.id);
  try {
    if (!index) throw new Error(`no index ${m.id}`);
    const value =
      m.type === 'clusters' ? index.getClusters(m.bbox, m.zoom) : index.getClusterExpansionZoom(m.clusterId);
    scope.postMessage({ type: 'answer', req: m.req, value } satisfies IndexAnswer);
  } catch (error) {
    scope.postMessage({ type: 'failed', req: m.req, message: String(error) } satisfies IndexAnswer);
  }
};
