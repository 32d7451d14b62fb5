import net from 'node:net';

/** Whether `port` on `host` can be listened on now. */
function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.unref();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/** A port of `host` that the system hands out as free now (another process may still take it before you). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.once('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The first port of `from`..`to` that can be listened on now: for a range of one's own on a machine shared by
 * several runs, or outside the ephemeral range where a client socket may hold a port.
 */
export async function portIn(from: number, to: number, host = '127.0.0.1'): Promise<number> {
  for (let port = from; port <= to; port++) if (await canListen(port, host)) return port;
  throw new Error(`no free port from ${from} to ${to}`);
}
