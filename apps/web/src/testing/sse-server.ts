import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeChanges, encodeReset, LIVE_PATH, type LiveChange } from '@forecourt/contract/live';

export interface SseRequest {
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * A real HTTP server speaking GET /api/live's wire format (text/event-stream, `retry`, the opening
 * comment, `id`/`event`/`data` messages), for tests of the console's stream client. It asks clients to
 * reconnect after `retryMs`; `refuseNext` answers the next connections with an error status instead.
 */
export async function startSseServer({ retryMs = 20 }: { retryMs?: number } = {}) {
  const open = new Set<ServerResponse>();
  const requests: SseRequest[] = [];
  const refusals: number[] = [];
  const waiters: Array<() => void> = [];

  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const status = refusals.shift();
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: true, error_text: `refused with ${status}` }));
    } else {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      res.write(`retry: ${retryMs}\n\n: live 0\n\n`);
      open.add(res);
      req.on('close', () => open.delete(res));
    }
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const write = (text: string) => {
    for (const res of open) res.write(text);
  };

  return {
    url: `http://127.0.0.1:${port}${LIVE_PATH}`,
    requests,
    /** Streams open right now. */
    openCount: () => open.size,
    /** Resolves once `count` requests have reached the server. */
    async requestCount(count: number) {
      while (requests.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    /** One `event: change` message carrying these changes (the contract's codec), with the last one's id. */
    change(changes: LiveChange[]) {
      const id = changes.at(-1)?.id;
      write(`id: ${id}\nevent: change\ndata: ${encodeChanges(changes)}\n\n`);
    },
    reset(cursor: number) {
      write(`id: ${cursor}\nevent: reset\ndata: ${encodeReset({ id: cursor })}\n\n`);
    },
    ping() {
      write(': ping\n\n');
    },
    /** Ends every open stream (the clients reconnect after `retryMs`). */
    drop() {
      for (const res of open) res.end();
      open.clear();
    },
    /** Answer the next connections with these statuses, one each. */
    refuseNext(...statuses: number[]) {
      refusals.push(...statuses);
    },
    async close() {
      for (const res of open) res.end();
      open.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type SseServer = Awaited<ReturnType<typeof startSseServer>>;
