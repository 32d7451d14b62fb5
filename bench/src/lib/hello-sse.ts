import http from 'node:http';

/**
 * The hello-world baseline of bench:live: a minimal node:http server speaking just enough of the product's wire
 * format. `GET /api/live` (any `Authorization`) holds the stream open (`retry:` and `: live <id>` first, as the
 * real route); `POST /api/device/v1/telemetry` with `Authorization: Device hello-<terminal>` answers 202 and
 * broadcasts one change message naming that terminal to every open stream at once (no scope, no batching, no
 * database); `GET /api/health` answers 200. Run as its own process: `node --import tsx hello-sse.ts <port>`.
 */
const port = Number(process.argv[2] ?? process.env.PORT);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: hello-sse.ts <port>');
  process.exit(2);
}

const streams = new Set<http.ServerResponse>();
let lastId = 0;

function broadcast(terminal: number) {
  lastId++;
  const msg = `id: ${lastId}\nevent: change\ndata: [{"id":${lastId},"kind":"telemetry","agent_id":1,"terminal":${terminal},"at":"${new Date().toISOString()}"}]\n\n`;
  for (const res of streams) res.write(msg);
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url?.startsWith('/api/live')) {
    if (!req.headers.authorization) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"data":{"errors":["no token"]}}');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 3000\n\n: live ${lastId}\n\n`);
    streams.add(res);
    res.on('close', () => streams.delete(res));
    return;
  }
  if (req.method === 'POST' && req.url === '/api/device/v1/telemetry') {
    const m = /^Device hello-(\d+)$/.exec(req.headers.authorization ?? '');
    req.resume();
    req.on('end', () => {
      if (!m) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"data":{"errors":["no token"]}}');
        return;
      }
      res.writeHead(202, { 'content-type': 'application/json' }).end('{}');
      broadcast(Number(m[1]));
    });
    return;
  }
  if (req.url === '/api/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    return;
  }
  res.writeHead(404).end();
});
server.requestTimeout = 0;
server.listen(port, '127.0.0.1');

const stop = () => {
  for (const res of streams) res.destroy();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
