import {
  LIVE_BATCH_MS,
  LIVE_HEARTBEAT_MS,
  LIVE_MAX_STREAMS_PER_ADDRESS,
  LIVE_MAX_STREAMS_PER_USER,
  LIVE_RETRY_MS,
} from '@forecourt/contract/live';

export interface LiveStreamSettings {
  /** Changes arriving within this window travel in one message (at most 4 messages a second). */
  batchMs: number;
  /** A `: ping` comment this often. */
  heartbeatMs: number;
  /** Open streams per user on this node. */
  maxPerUser: number;
  /** Open streams per client address on this node (IPv6: per /64), whoever signed in. */
  maxPerAddress: number;
  /** A socket holding more unsent bytes than this is destroyed: the client reconnects and resumes. */
  maxBufferedBytes: number;
  /** The `retry:` the stream announces. */
  retryMs: number;
  /**
   * A Last-Event-ID ahead of this node's feed (the client came from a node that had read further) waits this long
   * for the feed to get there before the answer is a reset.
   */
  catchUpMs: number;
  /** A backlog too long for the socket at once waits this long for the client to read before the stream is dropped. */
  drainMs: number;
}

export const DEFAULT_LIVE_SETTINGS: LiveStreamSettings = {
  batchMs: LIVE_BATCH_MS,
  heartbeatMs: LIVE_HEARTBEAT_MS,
  maxPerUser: LIVE_MAX_STREAMS_PER_USER,
  maxPerAddress: LIVE_MAX_STREAMS_PER_ADDRESS,
  maxBufferedBytes: 1024 * 1024,
  retryMs: LIVE_RETRY_MS,
  catchUpMs: 2_000,
  drainMs: 30_000,
};
