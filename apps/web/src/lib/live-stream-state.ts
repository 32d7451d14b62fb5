import { createStore, useStore } from './create-store.ts';

/**
 * Where the tab's stream of changes (GET /api/live) stands:
 * - `off`: signed out, no stream;
 * - `connecting`: signed in, the first connection is on its way;
 * - `live`: the stream is open, every change in scope arrives on it;
 * - `reconnecting`: the stream dropped or was refused; it is being opened again.
 * Dashboard reads poll only while the state is not `live` (lib/api/live.ts).
 */
export type LiveState = 'off' | 'connecting' | 'live' | 'reconnecting';

export const liveStateStore = createStore<LiveState>('off');

/** Whether changes arrive on the stream right now (then nothing needs to poll). */
export const isStreamLive = (): boolean => liveStateStore.get() === 'live';

export function useLiveState(): LiveState {
  return useStore(liveStateStore);
}

let newestChangeId: string | null = null;

/**
 * The id of the newest change this tab has been told of (null without a stream). Reads send it as
 * `X-Live-Cursor`: a node whose own feed is behind it (the stream may be on another node) waits for its
 * feed to pass it, so a refetch caused by a change never answers from before that change.
 */
export const liveCursor = {
  get: (): string | null => newestChangeId,
  set(id: string | null) {
    newestChangeId = id;
  },
};
