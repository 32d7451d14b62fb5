import net from 'node:net';

/** A TCP proxy to `target` that a test can cut (every connection dropped, new ones refused) and restore. */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  /** While frozen, connections stay open but nothing passes: a database that stopped answering. */
  let frozen = false;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          sock.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.on('data', (d) => {
          if (!frozen) upstream.write(d);
        });
        upstream.on('data', (d) => {
          if (!frozen) client.write(d);
        });
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    /** Drops every open connection and refuses new ones (as a stopped database does). */
    async cut() {
      const s = server;
      server = null;
      for (const sock of sockets) sock.destroy();
      await new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));
    },
    /** Keeps every connection open and accepts new ones, but passes nothing either way. */
    freeze() {
      frozen = true;
    },
    /** Accepts connections again on the same port, and lets data pass. */
    restore() {
      frozen = false;
      return listen();
    },
    close() {
      frozen = false;
      return this.cut();
    },
  };
}
