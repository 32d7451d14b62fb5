import { QueryClient, type QueryKey, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SseServer, startSseServer } from '../testing/sse-server.ts';
import { alertQueries } from './api/alerts.ts';
import { commandQueries } from './api/commands.ts';
import { POLL_INTERVAL_MS, polled } from './api/live.ts';
import { QUERY_ROOTS, scopedKey } from './api/query-keys.ts';
import { changeFromWire, changesFromMessage, setLiveState, startLiveStream } from './live-stream.ts';
import { liveCursor, liveStateStore, readsCursor } from './live-stream-state.ts';

const site = { kind: 'site', id: 101 } as const;
const otherSite = { kind: 'site', id: 201 } as const;
const at = '2026-11-24T10:00:00.000Z';
const where = { agent_id: 7, company_id: 11, site_id: 101 };

/**
 * vi.waitFor with room: it waits for an outcome, it does not time it. Its own default (1 s) is too short for a
 * real HTTP round trip on a loaded 2-core CI machine (the stream tests talk to a real server).
 */
const eventually = <T>(check: () => T) => vi.waitFor(check, { timeout: 10_000 });

/** Queries on screen (observed), each counting how often it was fetched. */
function screenWith(client: QueryClient, keys: Record<string, QueryKey>) {
  const fetches: Record<string, number> = {};
  const unsubscribers: Array<() => void> = [];
  for (const [name, queryKey] of Object.entries(keys)) {
    fetches[name] = 0;
    const observer = new QueryObserver(client, {
      queryKey,
      queryFn: async () => {
        fetches[name] += 1;
        return fetches[name];
      },
      staleTime: Number.POSITIVE_INFINITY,
    });
    unsubscribers.push(observer.subscribe(() => {}));
  }
  /** Resolves once every query has been fetched `times` times. */
  const fetched = (times: number, names = Object.keys(keys)) =>
    eventually(() => {
      for (const name of names) expect(fetches[name], name).toBe(times);
    });
  return {
    fetches,
    fetched,
    unmount: () => {
      for (const u of unsubscribers) u();
    },
  };
}

const KEYS: Record<string, QueryKey> = {
  'alerts site': alertQueries.list(site).queryKey,
  'bell count site': alertQueries.count(site, { state: 'active', acknowledged: false }).queryKey,
  'alerts other site': alertQueries.list(otherSite).queryKey,
  'pumps site': scopedKey(QUERY_ROOTS.pumps, site),
  'pump 5 timeline': commandQueries.timeline('pump', 5).queryKey,
  'pump 6 timeline': commandQueries.timeline('pump', 6).queryKey,
  'battery site': scopedKey(QUERY_ROOTS.battery, site),
  weather: [QUERY_ROOTS.weather, { lat: 1, lng: 2 }],
};

const LIVE_NAMES = Object.keys(KEYS).filter((name) => name !== 'weather');

// The test's own fetch is the real one: the stream client talks HTTP to a real server.
const realFetch = globalThis.fetch;

describe('changes on the wire', () => {
  it('converts the snake_case change to the console terms; ids that are absent or not positive are left out', () => {
    expect(
      changeFromWire({
        id: 9,
        kind: 'pump',
        agent_id: 7,
        company_id: 11,
        site_id: 101,
        terminal: 17,
        pump: 5,
        at,
      }),
    ).toEqual({ kind: 'pump', agentId: 7, companyId: 11, siteId: 101, terminalId: 17, pumpId: 5 });
    expect(changeFromWire({ id: 10, kind: 'fleet', agent_id: 7, company_id: null, at })).toEqual({
      kind: 'fleet',
      agentId: 7,
    });
    expect(changeFromWire({ id: 11, kind: 'teleportation', site_id: 1 })).toBeNull();
  });

  it('a message it cannot read asks for everything to be read again', () => {
    expect(changesFromMessage(JSON.stringify([{ id: 1, kind: 'alert', site_id: 3, at }]))).toEqual([
      { kind: 'alert', siteId: 3 },
    ]);
    expect(changesFromMessage('{"id":1}')).toBeNull();
    expect(changesFromMessage('not json')).toBeNull();
    expect(changesFromMessage(JSON.stringify([{ id: 1, kind: 'new-kind' }]))).toBeNull();
  });
});

describe('the stream client (a real SSE server)', () => {
  let server: SseServer;
  let client: QueryClient;
  let stop: () => void = () => {};
  const unauthorized = vi.fn();

  beforeEach(async () => {
    server = await startSseServer();
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    unauthorized.mockReset();
  });

  afterEach(async () => {
    stop();
    client.clear();
    await server.close();
    liveStateStore.set('off');
    readsCursor.reset();
  });

  const open = (token = 'token-1') => {
    stop = startLiveStream({
      client,
      url: server.url,
      token: () => token,
      fetch: realFetch,
      onUnauthorized: unauthorized,
      retryDelay: () => 10,
    });
  };

  const live = () => eventually(() => expect(liveStateStore.get()).toBe('live'));

  it('asks for the stream at low priority: background traffic, not part of loading the page', async () => {
    const asked: RequestInit[] = [];
    stop = startLiveStream({
      client,
      url: server.url,
      token: () => 'token-1',
      fetch: (input, init) => {
        asked.push(init ?? {});
        return realFetch(input, init);
      },
      onUnauthorized: unauthorized,
    });
    await live();
    expect(asked).toHaveLength(1);
    expect(asked[0].priority).toBe('low');
  });

  it('opens one stream with the token, says so, and a message refetches exactly what its changes touch, in one pass', async () => {
    const view = screenWith(client, KEYS);
    await view.fetched(1);
    open();
    expect(liveStateStore.get()).toBe('connecting');
    await live();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers.authorization).toBe('JWT token-1');
    expect(server.requests[0].headers.accept).toBe('text/event-stream');
    expect(server.requests[0].headers['last-event-id']).toBeUndefined();
    // Opened with nothing to resume from: what was loaded before is read once more (weather is not live).
    await view.fetched(2, LIVE_NAMES);
    const base = { ...view.fetches };

    const invalidations = vi.spyOn(client, 'invalidateQueries');
    server.change([
      { id: 41, kind: 'alert', ...where, terminal: 17, at },
      { id: 42, kind: 'pump', ...where, terminal: 17, pump: 5, at },
      { id: 43, kind: 'alert', ...where, terminal: 18, at },
    ]);
    await eventually(() => expect(view.fetches['pump 5 timeline']).toBe(base['pump 5 timeline'] + 1));
    await eventually(() => {
      expect(view.fetches['alerts site']).toBe(base['alerts site'] + 1);
      expect(view.fetches['bell count site']).toBe(base['bell count site'] + 1);
      expect(view.fetches['pumps site']).toBe(base['pumps site'] + 1);
    });
    expect(invalidations).toHaveBeenCalledTimes(1);
    // Reads from now on name the newest change seen (X-Live-Cursor).
    expect(liveCursor.get()).toBe('43');
    expect(view.fetches['alerts other site']).toBe(base['alerts other site']);
    expect(view.fetches['pump 6 timeline']).toBe(base['pump 6 timeline']);
    expect(view.fetches['battery site']).toBe(base['battery site']);
    expect(view.fetches.weather).toBe(base.weather);
    view.unmount();
  });

  it('resumes after the oldest X-Live-Cursor of the reads made before it, reading nothing again; a late older read re-reads', async () => {
    const view = screenWith(client, KEYS);
    await view.fetched(1);
    // What lib/api-client.ts notes of each answer; one read is still on its way.
    readsCursor.answered('40', readsCursor.epoch());
    readsCursor.answered('38', readsCursor.epoch());
    const stillOnItsWay = readsCursor.epoch();
    open();
    await live();
    expect(server.requests[0].headers['last-event-id']).toBe('38');
    expect(liveCursor.get()).toBe('38');
    // The changes after 38 arrive on the stream: only what they touch is read again.
    server.change([{ id: 39, kind: 'pump', ...where, terminal: 17, pump: 5, at }]);
    await eventually(() => expect(view.fetches['pump 5 timeline']).toBe(2));
    await eventually(() => expect(view.fetches['pumps site']).toBe(2));
    expect(view.fetches['alerts site']).toBe(1);
    expect(view.fetches['battery site']).toBe(1);
    // The read sent before the stream opened answers from before 38: it may predate a change the stream skips.
    readsCursor.answered('37', stillOnItsWay);
    await view.fetched(
      2,
      LIVE_NAMES.filter((name) => !name.includes('pump')),
    );
    expect(view.fetches.weather).toBe(1);
    view.unmount();
  });

  it('a dropped stream shows Reconnecting…, comes back by itself with Last-Event-ID and misses nothing', async () => {
    const view = screenWith(client, { 'battery site': KEYS['battery site'] });
    await view.fetched(1);
    open();
    await live();
    await view.fetched(2);
    server.change([{ id: 7, kind: 'telemetry', ...where, terminal: 17, at }]);
    await view.fetched(3);
    const seen: string[] = [];
    const unsubscribe = liveStateStore.subscribe(() => seen.push(liveStateStore.get()));

    server.drop();
    await server.requestCount(2);
    await live();
    expect(seen).toEqual(['reconnecting', 'live']);
    expect(server.requests[1].headers['last-event-id']).toBe('7');
    expect(server.requests[1].headers.authorization).toBe('JWT token-1');
    unsubscribe();
    view.unmount();
  });

  it('a refused stream (503) is opened again, still resuming from the last id', async () => {
    const view = screenWith(client, { shocks: scopedKey(QUERY_ROOTS.shocks, site) });
    await view.fetched(1);
    open();
    await live();
    await view.fetched(2);
    server.change([{ id: 13, kind: 'shock', ...where, at }]);
    await view.fetched(3);

    server.refuseNext(503);
    server.drop();
    await server.requestCount(3);
    await live();
    expect(server.requests.map((r) => r.headers['last-event-id'])).toEqual([undefined, '13', '13']);
    view.unmount();
  });

  it('event: reset refetches every live query, and only those', async () => {
    const view = screenWith(client, KEYS);
    await view.fetched(1);
    open();
    await live();
    await view.fetched(2, LIVE_NAMES);
    server.reset(500);
    await view.fetched(3, LIVE_NAMES);
    expect(view.fetches.weather).toBe(1);
    view.unmount();
  });

  it('a 401 ends the session like any call, and the stream with it', async () => {
    server.refuseNext(401);
    open();
    await eventually(() => expect(unauthorized).toHaveBeenCalledTimes(1));
    expect(liveStateStore.get()).toBe('off');
    expect(server.requests).toHaveLength(1);
  });

  it('stopping (sign-out) closes the stream', async () => {
    open();
    await live();
    await eventually(() => expect(server.openCount()).toBe(1));
    server.reset(77);
    await eventually(() => expect(liveCursor.get()).toBe('77'));
    stop();
    expect(liveStateStore.get()).toBe('off');
    expect(liveCursor.get()).toBeNull();
    await eventually(() => expect(server.openCount()).toBe(0));
  });
});

describe('polling while the stream is down', () => {
  afterEach(() => liveStateStore.set('off'));

  it('a dashboard read polls every 12.5 s only while the stream is not live', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    let fetches = 0;
    const observer = new QueryObserver(client, {
      queryKey: ['battery', 'site', 101],
      queryFn: async () => ++fetches,
      ...polled,
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toBe(1);

    setLiveState(client, 'live');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 4);
    expect(fetches).toBe(1);

    setLiveState(client, 'reconnecting');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(fetches).toBe(2);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(fetches).toBe(3);

    setLiveState(client, 'live');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 4);
    expect(fetches).toBe(3);
    unsubscribe();
    client.clear();
  });
});
