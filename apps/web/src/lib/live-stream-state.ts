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

/** The epoch of the reads sent before the stream first took its starting point: the first one. */
export const EARLY_READ_EPOCH = 0;

/**
 * Where the tab's first stream of changes resumes from, so that it is not followed by reading everything again.
 * Each read's answer names in `X-Live-Cursor` a change up to which it is up to date (the server's
 * plugins/live-cursor.ts). Until the stream first opens, the oldest of those is kept; the stream resumes after it
 * (`Last-Event-ID`) and is sent every change the reads may predate. A read answered without one (a server that
 * does not send it) leaves nothing to resume from: the stream then reads everything again when it opens. A read
 * sent before the stream took its starting point and answered after it with an older cursor (or none) calls
 * `onLate`: what it holds may predate a change the stream will not send.
 */
export function createReadsCursor() {
  let epoch = EARLY_READ_EPOCH;
  let oldest: number | null = null;
  let unknown = false;
  let resumedAt: number | null = null;
  let onLate: (() => void) | null = null;
  return {
    /** The epoch to tag a read with when it is sent. */
    epoch: () => epoch,
    /** A read sent in `sentEpoch` was answered (2xx or 304) with this `X-Live-Cursor` (null: none). */
    answered(header: string | null, sentEpoch: number) {
      const cursor = header !== null && /^\d{1,15}$/.test(header) ? Number(header) : null;
      if (sentEpoch === epoch) {
        if (cursor === null) unknown = true;
        else if (oldest === null || cursor < oldest) oldest = cursor;
        return;
      }
      if (resumedAt !== null && (cursor === null || cursor < resumedAt)) onLate?.();
    },
    /**
     * The stream opens: the id to resume after, or null when the reads so far give none. `late` is called for a
     * read already on its way that turns out older than that id.
     */
    take(late: () => void): number | null {
      resumedAt = unknown ? null : oldest;
      onLate = late;
      epoch += 1;
      oldest = null;
      unknown = false;
      return resumedAt;
    },
    /** The stream stopped (signed out): the next one starts from the reads made from now on. */
    reset() {
      resumedAt = null;
      onLate = null;
      epoch += 1;
      oldest = null;
      unknown = false;
    },
  };
}

/** The tab's reads, as its stream of changes resumes from them (lib/api-client.ts notes each answer). */
export const readsCursor = createReadsCursor();
