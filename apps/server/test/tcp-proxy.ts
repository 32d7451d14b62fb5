import net from 'node:net';

/** A TCP proxy to `target` that a test can cut (every connection dropped, new ones refused) and restore. */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
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
        client.pipe(upstream).pipe(client);
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
    /** Accepts connections again on the same port. */
    restore: listen,
    close() {
      return this.cut();
    },
  };
}
