import {
  HISTORY_POINTS,
  type TelemetryHistory,
  TelemetryHistorySchema,
  type TelemetrySignal,
} from '@forecourt/contract/telemetry-history';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { pollWhileStreamDown } from './live.ts';
import { QUERY_ROOTS } from './query-keys.ts';

/** GET /api/terminal/{id}/telemetry/: one reading of one terminal over [from, to) (to omitted: now). */
export function getTelemetryHistory(
  terminalId: number,
  signal: TelemetrySignal,
  range: { from: string; to?: string; points?: number },
  abort?: AbortSignal,
): Promise<TelemetryHistory> {
  return api.get(`/api/terminal/${terminalId}/telemetry/`, {
    query: { signal, from: range.from, to: range.to, points: range.points },
    schema: TelemetryHistorySchema,
    signal: abort,
  });
}

/**
 * A terminal's history, keyed `['telemetry', 'range', terminal, signal, from, to, points]` for a chart's range and
 * `['telemetry', 'tail', terminal, signal, since]` for what arrived since that range's end. Only the tails follow
 * the stream (a telemetry change of the terminal re-reads them: lib/api/queries-touched-by.ts): a chart ending now
 * appends its tail instead of reading its whole range again for each reading.
 */
export const telemetryQueries = {
  all: [QUERY_ROOTS.telemetry] as const,
  tails: (terminalId: number) => [QUERY_ROOTS.telemetry, 'tail', terminalId] as const,
  /** The buckets (or readings) of [from, to): a past range does not change, so it is read once. */
  range: (
    terminalId: number,
    signal: TelemetrySignal,
    from: string,
    to: string,
    points = HISTORY_POINTS.default,
  ) =>
    queryOptions({
      queryKey: [QUERY_ROOTS.telemetry, 'range', terminalId, signal, from, to, points] as const,
      queryFn: ({ signal: abort }) => getTelemetryHistory(terminalId, signal, { from, to, points }, abort),
      staleTime: Number.POSITIVE_INFINITY,
    }),
  /**
   * Every reading from `since` to now (as many as the answer may hold, so they come as they are): re-read on each
   * telemetry change of the terminal, polled only while the stream is down.
   */
  tail: (terminalId: number, signal: TelemetrySignal, since: string) =>
    queryOptions({
      queryKey: [...telemetryQueries.tails(terminalId), signal, since] as const,
      queryFn: ({ signal: abort }) =>
        getTelemetryHistory(terminalId, signal, { from: since, points: HISTORY_POINTS.max }, abort),
      refetchInterval: pollWhileStreamDown(),
      refetchIntervalInBackground: false,
      meta: { live: true },
    }),
};
