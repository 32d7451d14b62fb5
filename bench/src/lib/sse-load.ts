import net from 'node:net';

/**
 * Many `GET /api/live` streams from one process, cheaply: each is a raw TCP socket that writes the HTTP request
 * itself and reads the answer as latin1 text (one byte = one character, so chunk sizes count right), de-chunks
 * it, splits it into server-sent events and looks only at what a benchmark needs: the `id:` of each message (to
 * resume after a drop) and the changes of the probe terminals (parsed only when a message names one).
 */

/** A device POST whose change the streams wait for. */
export interface Probe {
  terminal: number;
  sentAt: number;
  /** When the POST was answered 202 (the write is committed): the rest of the latency is feed and fan-out. */
  answeredAt?: number;
  /** Streams that should receive it (open and in scope when it was sent). */
  expected: number;
  received: number;
  /** Measuring step it belongs to (-1: not measured). */
  step: number;
}

/** What every stream shares: the probe terminals and their probes in order, and where latencies go. */
export class ProbeBook {
  /** Probes per terminal, in the order they were sent (the k-th telemetry change of a terminal is its k-th probe). */
  readonly byTerminal = new Map<number, Probe[]>();
  /** `"terminal":T,` as it appears in a change's JSON (the contract's encodeChange writes `,"at"` or `,"pump"` after it). */
  readonly markers: Array<{ terminal: number; text: string }> = [];
  /** Terminals whose count can no longer be trusted (a probe failed or timed out): ignored from then on. */
  readonly poisoned = new Set<number>();
  latencies: number[] = [];
  step = -1;

  constructor(terminals: number[]) {
    for (const t of terminals) {
      this.byTerminal.set(t, []);
      this.markers.push({ terminal: t, text: `"terminal":${t},` });
    }
  }

  /** How many probes of each terminal have been sent: a stream opened now counts from there. */
  counts(): Map<number, number> {
    return new Map([...this.byTerminal].map(([t, list]) => [t, list.length]));
  }
}

export interface StreamStats {
  messages: number;
  /** Changes counted on the monitor streams only (the others do not parse non-probe messages). */
  monitorChanges: number;
  resets: number;
  drops: number;
  reconnects: number;
  bytes: number;
}

export interface StreamTarget {
  host: string;
  port: number;
  token: string;
  /** Which probe terminals this stream's scope reaches. */
  inScope: (terminal: number) => boolean;
}

type OpenState = 'connecting' | 'head' | 'open' | 'closed';

export class SseStream {
  private sock: net.Socket | null = null;
  private state: OpenState = 'connecting';
  private head = '';
  private chunked = false;
  /** Bytes still to read of the current chunk (0: reading a size line). */
  private need = 0;
  private sizeLine = '';
  private pending = '';
  private lastId: string | null = null;
  private counts: Map<number, number>;
  private openedResolve: (() => void) | null = null;
  private openedReject: ((e: Error) => void) | null = null;
  private wanted = true;
  status = 0;

  constructor(
    readonly target: StreamTarget,
    private readonly book: ProbeBook,
    private readonly stats: StreamStats,
    /** Monitor streams count every change they receive (the rate of changes in their scope). */
    private readonly monitor = false,
  ) {
    this.counts = book.counts();
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Connects and resolves once the stream's opening comment (`: live <cursor>`) has arrived. */
  open(timeoutMs = 60_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.openedReject?.(new Error(`no opening comment within ${timeoutMs} ms`));
        this.close();
      }, timeoutMs);
      this.openedResolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.openedReject = (e) => {
        clearTimeout(timer);
        reject(e);
      };
      this.connect();
    });
  }

  private connect() {
    this.state = 'connecting';
    this.head = '';
    this.need = 0;
    this.sizeLine = '';
    this.pending = '';
    const sock = net.connect({ host: this.target.host, port: this.target.port });
    this.sock = sock;
    sock.setNoDelay(true);
    sock.setEncoding('latin1');
    sock.on('connect', () => {
      this.state = 'head';
      const resume = this.lastId ? `Last-Event-ID: ${this.lastId}\r\n` : '';
      sock.write(
        `GET /api/live HTTP/1.1\r\nHost: ${this.target.host}:${this.target.port}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${this.target.token}\r\n${resume}\r\n`,
      );
    });
    sock.on('data', (text: string) => this.onData(text, performance.now()));
    sock.on('error', () => {});
    sock.on('close', () => {
      if (this.sock !== sock) return;
      const wasOpen = this.state === 'open';
      this.state = 'closed';
      this.sock = null;
      if (this.openedReject) {
        this.openedReject(new Error(this.status ? `answered ${this.status}` : 'connection closed'));
        this.openedReject = null;
        this.openedResolve = null;
        return;
      }
      if (wasOpen && this.wanted) {
        // The server ended the stream (slow reader, node closing): reconnect and resume as a browser would.
        this.stats.drops++;
        setTimeout(() => {
          if (!this.wanted) return;
          this.stats.reconnects++;
          this.connect();
        }, 200);
      }
    });
  }

  close() {
    this.wanted = false;
    this.sock?.destroy();
    this.sock = null;
    this.state = 'closed';
  }

  private onData(text: string, now: number) {
    this.stats.bytes += text.length;
    if (this.state === 'head') {
      this.head += text;
      const end = this.head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.head.slice(0, end);
      const rest = this.head.slice(end + 4);
      this.head = '';
      this.status = Number(head.slice(9, 12));
      if (this.status !== 200) {
        this.sock?.destroy();
        return;
      }
      this.chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
      this.state = 'open';
      if (rest) this.onBody(rest, now);
      return;
    }
    if (this.state === 'open') this.onBody(text, now);
  }

  private onBody(text: string, now: number) {
    if (!this.chunked) {
      this.onText(text, now);
      return;
    }
    let i = 0;
    while (i < text.length) {
      if (this.need === 0) {
        const nl = text.indexOf('\n', i);
        if (nl < 0) {
          this.sizeLine += text.slice(i);
          return;
        }
        const line = (this.sizeLine + text.slice(i, nl)).trim();
        this.sizeLine = '';
        i = nl + 1;
        if (line === '') continue; // the CRLF closing a chunk
        const size = Number.parseInt(line, 16);
        if (!(size > 0)) {
          this.sock?.end();
          return;
        }
        this.need = size;
      } else {
        const take = Math.min(this.need, text.length - i);
        this.onText(text.slice(i, i + take), now);
        i += take;
        this.need -= take;
      }
    }
  }

  private onText(text: string, now: number) {
    this.pending = this.pending ? this.pending + text : text;
    let start = 0;
    for (;;) {
      const end = this.pending.indexOf('\n\n', start);
      if (end < 0) break;
      this.onEvent(this.pending.slice(start, end), now);
      start = end + 2;
    }
    this.pending = start === this.pending.length ? '' : this.pending.slice(start);
  }

  private onEvent(ev: string, now: number) {
    if (ev.charCodeAt(0) === 58 /* ':' */) {
      if (this.openedResolve && ev.startsWith(': live')) {
        this.openedResolve();
        this.openedResolve = null;
        this.openedReject = null;
      }
      return;
    }
    if (!ev.startsWith('id: ')) return; // retry:
    const nl = ev.indexOf('\n');
    this.lastId = ev.slice(4, nl);
    this.stats.messages++;
    if (ev.indexOf('event: reset', nl) >= 0) {
      this.stats.resets++;
      return;
    }
    let hit = this.monitor;
    if (!hit) {
      for (const m of this.book.markers) {
        if (ev.indexOf(m.text, nl) >= 0) {
          hit = true;
          break;
        }
      }
    }
    if (!hit) return;
    const data = ev.indexOf('data: ', nl);
    if (data < 0) return;
    const changes = JSON.parse(ev.slice(data + 6)) as Array<{ kind: string; terminal?: number }>;
    if (this.monitor) this.stats.monitorChanges += changes.length;
    for (const c of changes) {
      if (c.kind !== 'telemetry' || c.terminal === undefined) continue;
      const list = this.book.byTerminal.get(c.terminal);
      if (!list) continue;
      const k = this.counts.get(c.terminal) ?? 0;
      this.counts.set(c.terminal, k + 1);
      if (this.book.poisoned.has(c.terminal)) continue;
      const probe = list[k];
      if (!probe) continue;
      probe.received++;
      if (probe.step >= 0 && probe.step === this.book.step) this.book.latencies.push(now - probe.sentAt);
    }
  }
}

/** Runs `fn` over `items` with at most `limit` at once. */
export async function pool<T>(items: T[], limit: number, fn: (item: T, i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export const percentile = (sorted: ArrayLike<number>, q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : Number.NaN;
