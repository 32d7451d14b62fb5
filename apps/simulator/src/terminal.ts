import {
  type DeviceCommand,
  type DeviceEvent,
  type DeviceShock,
  type DeviceTransaction,
  MAX_BATCH,
  type TelemetryPoint,
} from '@forecourt/contract/device';
import { PUMP_STATUS_NORMAL, pumpStatusText } from '@forecourt/contract/pumps';
import type { Random } from '@forecourt/contract/random';
import { ApiError, type DeviceClient } from './api.ts';
import {
  initialSensors,
  makeEvent,
  makeTransaction,
  routinePumpCode,
  type SensorState,
  sampleTelemetry,
  shockReading,
  trafficFactor,
} from './model.ts';
import type { Behaviour } from './options.ts';

export interface Stats {
  requests: number;
  failures: number;
  telemetry: number;
  transactions: number;
  events: number;
  shocks: number;
  pumpStatuses: number;
  commands: number;
  acks: number;
  outages: number;
  reboots: number;
  installs: number;
}
export const emptyStats = (): Stats => ({
  requests: 0,
  failures: 0,
  telemetry: 0,
  transactions: 0,
  events: 0,
  shocks: 0,
  pumpStatuses: 0,
  commands: 0,
  acks: 0,
  outages: 0,
  reboots: 0,
  installs: 0,
});

export interface TerminalHooks {
  stats: Stats;
  /**
   * The server refused our device token (401): someone else rotated it, or the terminal was decommissioned. A real
   * device now holds the terminal: the simulator stops simulating it and never takes it back
   * (docs/decisions/0005-commands-and-devices.md).
   */
  cutOff(terminalId: number): void;
  log(level: 'info' | 'warn', message: string): void;
}

export type TerminalState = 'up' | 'rebooting' | 'outage' | 'stopped';

/** Buffers are bounded: a terminal down for a long time keeps its newest readings. */
const MAX_BUFFER = 50_000;
const RETRY_MS = 5_000;

/**
 * One simulated terminal. It samples its sensors, sells fuel, raises the odd event and shock, reports its pumps
 * (when it carries them), long-polls for commands and obeys them. It goes silent during a reboot or an outage
 * and uploads what it buffered when it returns.
 */
export class TerminalSim {
  state: TerminalState = 'stopped';
  readonly pumps = new Map<number, 0 | 1>();
  private readonly sensors: SensorState;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private poll: AbortController | null = null;
  private wakeUp: (() => void) | null = null;
  private lastSample = Date.now();
  private readonly telemetry: TelemetryPoint[] = [];
  private readonly transactions: DeviceTransaction[] = [];
  private readonly events: DeviceEvent[] = [];
  /** Conditions this terminal raised and has not cleared yet (event types; docs/event-types.md). */
  private readonly open = new Set<number>();
  private readonly shocks: DeviceShock[] = [];
  private readonly pending: Array<{ id: number; result: 'ok' | 'failed'; detail: string }> = [];
  private sending = false;
  private flushAgain = false;
  /** True once the server refused our token: the terminal is someone else's now. */
  released = false;

  constructor(
    readonly id: number,
    readonly number: string,
    readonly siteId: number,
    private readonly client: DeviceClient,
    private readonly b: Behaviour,
    private readonly rnd: Random,
    private readonly hooks: TerminalHooks,
    /** The server's CONNECTIVITY_TIMEOUT (s): outages last a few of these. */
    private connectivityTimeoutS = 300,
  ) {
    this.sensors = initialSensors(rnd);
  }

  /** Learns its pumps and starts every loop, the first readings spread over one interval. */
  async start(): Promise<void> {
    const me = await this.request(() => this.client.me());
    this.connectivityTimeoutS = me.connectivity_timeout;
    for (const p of me.pumps) this.pumps.set(p.pump_no, p.last_synapse_status === 1 ? 1 : 0);
    this.state = 'up';
    const sampleMs = 1000 / this.b.rate;
    this.every(sampleMs, () => this.sample(), this.rnd.between(0, sampleMs));
    this.every(
      this.b.transactionFlushMs,
      () => this.flushAll(),
      this.rnd.between(0, this.b.transactionFlushMs),
    );
    if (this.pumps.size) {
      this.every(
        this.b.pumpStatusEveryMs,
        () => this.reportPumps(),
        this.rnd.between(0, this.b.pumpStatusEveryMs),
      );
    }
    this.poisson(
      () => this.b.peakTransactionsPerHour,
      () => {
        const now = new Date();
        if (this.state !== 'rebooting' && this.rnd.chance(trafficFactor(now))) {
          this.buffer(this.transactions, makeTransaction(this.rnd, now));
        }
      },
    );
    this.poisson(
      () => this.b.eventsPerHour,
      () => {
        if (this.state === 'rebooting') return;
        const now = new Date();
        // Half the time a condition it raised is over: the device clears it, as a real terminal would.
        if (this.open.size && this.rnd.chance(0.5)) {
          const type = this.rnd.pick([...this.open]);
          this.open.delete(type);
          this.buffer(this.events, { event_type: type, clear: true, at: now.toISOString() });
        } else {
          const event = makeEvent(this.rnd, now);
          this.open.add(event.event_type);
          this.buffer(this.events, event);
        }
        void this.flushAll();
      },
    );
    this.poisson(
      () => this.b.shocksPerHour,
      () => {
        this.buffer(this.shocks, { reading: shockReading(this.rnd), at: new Date().toISOString() });
        void this.flushAll();
      },
    );
    this.poisson(
      () => this.b.outagesPerHour,
      () => {
        if (this.state !== 'up') return;
        const ms = this.connectivityTimeoutS * 1000 * this.rnd.between(...this.b.outageTimeouts);
        this.hooks.log('info', `terminal ${this.number} drops offline for ${Math.round(ms / 1000)} s`);
        this.goDown('outage', ms);
      },
    );
    void this.pollLoop();
  }

  stop(): void {
    this.state = 'stopped';
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.poll?.abort();
    this.wakeUp?.();
  }

  /** Silent for `ms` (no call at all), then back: an outage or a reboot. */
  goDown(kind: 'outage' | 'rebooting', ms: number, then?: () => void): void {
    if (this.state !== 'up') return;
    this.state = kind;
    if (kind === 'outage') this.hooks.stats.outages++;
    this.poll?.abort();
    this.after(ms, () => {
      if (this.state !== kind) return;
      this.state = 'up';
      then?.();
      this.wakeUp?.();
      void this.flushAll();
    });
  }

  private after(ms: number, fn: () => void) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private every(ms: number, fn: () => void, firstMs = ms) {
    this.after(firstMs, () => {
      if (this.state === 'stopped') return;
      fn();
      this.every(ms, fn);
    });
  }

  /** A Poisson process whose rate (per hour) is read at each step. */
  private poisson(perHour: () => number, fn: () => void) {
    const rate = perHour() / 3_600_000;
    if (rate <= 0) return;
    this.after(this.rnd.exponential(rate), () => {
      if (this.state === 'stopped') return;
      fn();
      this.poisson(perHour, fn);
    });
  }

  private buffer<T>(list: T[], item: T) {
    list.push(item);
    if (list.length > MAX_BUFFER) list.splice(0, list.length - MAX_BUFFER);
  }

  private sample() {
    const now = Date.now();
    if (this.state !== 'rebooting') {
      this.buffer(
        this.telemetry,
        sampleTelemetry(this.sensors, this.rnd, new Date(now), now - this.lastSample),
      );
    }
    this.lastSample = now;
    if (this.telemetry.length >= this.b.batch) void this.flushAll(['telemetry']);
  }

  /** Sends what is buffered (when up); a failed send keeps it for the next try. */
  private async flushAll(only?: string[]): Promise<void> {
    if (this.state !== 'up') return;
    if (this.sending) {
      this.flushAgain = true;
      return;
    }
    this.sending = true;
    try {
      const queues: Array<[string, unknown[], keyof Stats]> = [
        ['telemetry', this.telemetry, 'telemetry'],
        ['transactions', this.transactions, 'transactions'],
        ['events', this.events, 'events'],
        ['shocks', this.shocks, 'shocks'],
      ];
      for (const [path, list, stat] of queues) {
        if (only && !only.includes(path)) continue;
        while (list.length && this.state === 'up') {
          const chunk = list.slice(0, MAX_BATCH);
          const ok = await this.send(path, chunk);
          if (ok === 'retry') return;
          list.splice(0, chunk.length);
          if (ok === 'stored') this.hooks.stats[stat] += chunk.length;
        }
      }
      while (this.pending.length && this.state === 'up') {
        const a = this.pending[0];
        try {
          await this.request(() => this.client.ack(a.id, a.result, a.detail));
          this.hooks.stats.acks++;
        } catch (err) {
          if (retryable(err)) return;
          this.hooks.log('warn', `terminal ${this.number}: ack ${a.id} refused: ${(err as Error).message}`);
        }
        this.pending.shift();
      }
    } finally {
      this.sending = false;
      if (this.flushAgain) {
        this.flushAgain = false;
        void this.flushAll();
      }
    }
  }

  private async send(path: string, body: unknown[]): Promise<'stored' | 'dropped' | 'retry'> {
    try {
      await this.request(() => this.client.send(path, body));
      return 'stored';
    } catch (err) {
      if (retryable(err)) return 'retry';
      this.hooks.log('warn', `terminal ${this.number}: ${path} refused, dropped: ${(err as Error).message}`);
      return 'dropped';
    }
  }

  private reportPumps(codeOf: (no: number) => number = () => routinePumpCode(this.rnd), only?: number) {
    if (this.state === 'rebooting') return Promise.resolve();
    const at = new Date().toISOString();
    const body = [...this.pumps]
      .filter(([no]) => only === undefined || no === only)
      .map(([no, status]) => {
        const code = codeOf(no);
        return { pump_no: no, status, code, text: pumpStatusText(code), at };
      });
    if (!body.length || this.state !== 'up') return Promise.resolve();
    return this.send('pumps/status', body).then((r) => {
      if (r === 'stored') this.hooks.stats.pumpStatuses += body.length;
    });
  }

  /** One call with the heartbeat bookkeeping: counts, and lets the terminal go when its token is cut off. */
  private async request<T>(fn: () => Promise<T>): Promise<T> {
    this.hooks.stats.requests++;
    try {
      return await fn();
    } catch (err) {
      this.hooks.stats.failures++;
      if (err instanceof ApiError && err.status === 401 && !this.released) {
        this.released = true;
        this.stop();
        this.hooks.log(
          'info',
          `terminal ${this.number}: device token cut off by someone else; no longer simulated`,
        );
        this.hooks.cutOff(this.id);
      }
      throw err;
    }
  }

  private async pollLoop(): Promise<void> {
    while (this.state !== 'stopped') {
      if (this.state !== 'up') {
        await new Promise<void>((resolve) => {
          this.wakeUp = resolve;
        });
        this.wakeUp = null;
        continue;
      }
      this.poll = new AbortController();
      try {
        const commands = await this.request(() => this.client.commands(this.b.pollWaitS, this.poll!.signal));
        for (const c of commands) this.obey(c);
      } catch (err) {
        if (
          this.state === 'up' &&
          !(err instanceof ApiError && err.status === 0 && this.poll.signal.aborted)
        ) {
          await new Promise<void>((resolve) => {
            this.wakeUp = resolve;
            this.after(RETRY_MS, resolve);
          });
          this.wakeUp = null;
        }
      } finally {
        this.poll = null;
      }
    }
  }

  /** Carries out a command: pumps switch after a few seconds (a few fail); a reboot silences the terminal. */
  obey(c: DeviceCommand): void {
    this.hooks.stats.commands++;
    const ack = (result: 'ok' | 'failed', detail: string) => {
      this.pending.push({ id: c.id, result, detail });
      void this.flushAll(['acks']);
    };
    if (c.kind === 'install') {
      void this.install(c);
      return;
    }
    if (c.kind === 'reboot') {
      this.hooks.stats.reboots++;
      const type = c.reboot_type ?? 'software';
      const ms = this.rnd.between(...this.b.rebootMs);
      this.hooks.log('info', `terminal ${this.number} reboots (${type}, ${Math.round(ms / 1000)} s)`);
      const fails = this.rnd.chance(this.b.rebootFailShare);
      this.goDown('rebooting', ms, () => {
        if (fails) {
          ack('failed', `Reboot aborted: ${type} reboot did not complete`);
          return;
        }
        this.buffer(this.events, { event_type: 10, text: `Reboot: ${type} reboot completed` });
        ack('ok', `${type[0].toUpperCase()}${type.slice(1)} reboot completed`);
      });
      return;
    }
    const target: 0 | 1 = c.kind === 'pump_on' ? 1 : 0;
    const pumpNo = c.pump_no ?? 0;
    this.after(this.rnd.between(...this.b.pumpDelayMs), () => {
      if (this.state !== 'up') return; // it will time out on the server, as a real one would
      if (!this.pumps.has(pumpNo) || this.rnd.chance(this.b.pumpFailShare)) {
        ack('failed', this.pumps.has(pumpNo) ? 'Pump controller did not respond' : `No pump ${pumpNo} here`);
        return;
      }
      this.pumps.set(pumpNo, target);
      void this.reportPumps(() => PUMP_STATUS_NORMAL, pumpNo).then(() =>
        ack('ok', `Pump ${pumpNo} is ${target ? 'on' : 'off'}`),
      );
    });
  }

  /**
   * Installs a package as a device would (docs/rollouts.md): downloads it with its token, checks its sha-256, takes
   * a few seconds, acknowledges, and then reports the new version in its telemetry. `installFailShare` of them fail.
   */
  private async install(c: DeviceCommand): Promise<void> {
    const version = c.version ?? '';
    const done = async (result: 'ok' | 'failed', detail: string) => {
      if (this.state !== 'up') return; // the server times it out, as it would a real one
      try {
        await this.request(() => this.client.ack(c.id, result, detail));
        this.hooks.stats.acks++;
        if (result === 'ok') await this.send('telemetry', [{ software_version: version }]);
      } catch (err) {
        this.hooks.log(
          'warn',
          `terminal ${this.number}: install ${c.id} not acknowledged: ${(err as Error).message}`,
        );
      }
    };
    let got: { size: number; sha256: string };
    try {
      got = await this.request(() =>
        this.client.download(c.url ?? `/api/device/v1/software/${c.software_id}`),
      );
    } catch (err) {
      await done('failed', `Download failed: ${(err as Error).message}`.slice(0, 500));
      return;
    }
    if (got.sha256 !== c.sha256 || (c.size !== undefined && got.size !== c.size)) {
      await done('failed', `Checksum mismatch: got ${got.sha256.slice(0, 12)}…, ${got.size} bytes`);
      return;
    }
    const fails = this.rnd.chance(this.b.installFailShare);
    this.after(this.rnd.between(...this.b.installMs), () => {
      this.hooks.stats.installs++;
      if (fails)
        void done('failed', `Install of ${version} failed: verification after flashing did not pass`);
      else void done('ok', `Installed ${version}`);
    });
  }

  /** What is waiting to be sent (for tests and the summary). */
  backlog() {
    return {
      telemetry: this.telemetry.length,
      transactions: this.transactions.length,
      events: this.events.length,
      shocks: this.shocks.length,
      acks: this.pending.length,
    };
  }
}

function retryable(err: unknown): boolean {
  return (
    !(err instanceof ApiError) ||
    err.status === 0 ||
    err.status === 401 ||
    err.status === 429 ||
    err.status >= 500
  );
}
