/** How the fleet behaves. Demo defaults keep the console lively at a few requests per second. */
export interface Behaviour {
  /** Telemetry readings per second per terminal. */
  rate: number;
  /** Readings sent per telemetry request (a device batches what it sampled). */
  batch: number;
  /** How often buffered transactions are uploaded (ms). */
  transactionFlushMs: number;
  /** Transactions per hour per terminal at peak traffic. */
  peakTransactionsPerHour: number;
  /** Events (hardware issues and others) per hour per terminal. */
  eventsPerHour: number;
  shocksPerHour: number;
  /** Routine pump status reports of a controller terminal (ms between them). */
  pumpStatusEveryMs: number;
  /** Long-poll wait of the command fetch (s, ≤ 30). */
  pollWaitS: number;
  /** A pump command is carried out after this long (ms). */
  pumpDelayMs: [number, number];
  pumpFailShare: number;
  /** A reboot keeps the terminal silent this long (ms). */
  rebootMs: [number, number];
  rebootFailShare: number;
  /** An install (a rollout's command) takes this long after its download (ms). */
  installMs: [number, number];
  /** Share of installs that fail (`--install-failure-rate`). */
  installFailShare: number;
  /** Outages (the terminal drops offline) per hour per terminal, and how long one lasts in connectivity timeouts. */
  outagesPerHour: number;
  outageTimeouts: [number, number];
}

export const DEMO_BEHAVIOUR: Behaviour = {
  rate: 1 / 20,
  batch: 3,
  transactionFlushMs: 60_000,
  peakTransactionsPerHour: 24,
  eventsPerHour: 0.1,
  shocksPerHour: 0.05,
  pumpStatusEveryMs: 5 * 60_000,
  pollWaitS: 25,
  pumpDelayMs: [2_000, 5_000],
  pumpFailShare: 0.05,
  rebootMs: [10_000, 30_000],
  rebootFailShare: 0.03,
  installMs: [2_000, 5_000],
  installFailShare: 0,
  outagesPerHour: 0.08,
  outageTimeouts: [1.3, 3],
};

export interface Options {
  url: string;
  username: string;
  password: string;
  /** Simulate at most this many terminals (default: all the user reaches). */
  terminals: number | null;
  /** Also run terminals that are offline when the simulator starts (default: they stay down, as seeded). */
  all: boolean;
  /** Seconds between summary lines on stdout (0: none). */
  reportS: number;
  quiet: boolean;
  /**
   * File that keeps the device tokens this simulator provisioned and the terminals it let go, so a restart
   * reuses its tokens and never takes back a terminal a real device now holds (null: kept in memory only).
   */
  state: string | null;
  /**
   * Seconds between looks for terminals created since the start (0: never). A new terminal nobody has provisioned
   * a device token for is provisioned and simulated; one with a token belongs to a real device and is left alone.
   */
  rediscoverS: number;
  behaviour: Behaviour;
}

export class UsageError extends Error {}

export const USAGE = `Usage: simulate [options]
  --url URL            server address (default http://127.0.0.1:8080, or SIMULATOR_URL)
  --username NAME      an agent's username (default agent)
  --password PASS      its password (default demo1234)
  --terminals N        simulate at most N terminals (default: every terminal the agent reaches)
  --rate R             telemetry readings per second per terminal (default 0.05)
  --batch B            readings per telemetry request (default 3; with --rate, one request per second)
  --outages R          outages per hour per terminal (default 0.08)
  --install-failure-rate F
                       share of software installs that fail, 0 to 1 (default 0)
  --all                also run terminals that are offline at start (they stay down by default)
  --report S           seconds between summary lines (default 60, 0 for none)
  --quiet              no summary lines
  --state FILE         keep provisioned device tokens and released terminals here across restarts
                       (default: SIMULATOR_STATE, else memory only)
  --rediscover S       seconds between looks for terminals created since the start (default 15, 0: never);
                       --terminals bounds only the terminals found at start
  --help`;

function num(flag: string, raw: string | undefined, min: number, max: number): number {
  const n = Number(raw);
  if (raw === undefined || raw === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(
      `${flag} must be a number from ${min} to ${max}${raw === undefined ? '' : ` (got ${raw})`}`,
    );
  }
  return n;
}

/** Parses the command line; throws UsageError naming the bad flag. */
export function parseArgs(argv: string[], env: Record<string, string | undefined> = {}): Options | 'help' {
  const o: Options = {
    url: env.SIMULATOR_URL ?? 'http://127.0.0.1:8080',
    username: env.SIMULATOR_USERNAME ?? 'agent',
    password: env.SIMULATOR_PASSWORD ?? 'demo1234',
    terminals: null,
    all: false,
    reportS: 60,
    quiet: false,
    state: env.SIMULATOR_STATE || null,
    rediscoverS: 15,
    behaviour: { ...DEMO_BEHAVIOUR },
  };
  let batchSet = false;
  let rateSet = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--help':
      case '-h':
        return 'help';
      case '--url': {
        const v = value();
        try {
          const u = new URL(v);
          if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
        } catch {
          throw new UsageError(`--url must be an http(s) URL (got ${v})`);
        }
        o.url = v.replace(/\/+$/, '');
        break;
      }
      case '--username':
        o.username = value();
        break;
      case '--password':
        o.password = value();
        break;
      case '--terminals':
        o.terminals = Math.floor(num('--terminals', value(), 1, 1_000_000));
        break;
      case '--rate':
        o.behaviour.rate = num('--rate', value(), 0.001, 1000);
        rateSet = true;
        break;
      case '--batch':
        o.behaviour.batch = Math.floor(num('--batch', value(), 1, 10_000));
        batchSet = true;
        break;
      case '--outages':
        o.behaviour.outagesPerHour = num('--outages', value(), 0, 100);
        break;
      case '--install-failure-rate':
        o.behaviour.installFailShare = num('--install-failure-rate', value(), 0, 1);
        break;
      case '--report':
        o.reportS = num('--report', value(), 0, 86_400);
        break;
      case '--all':
        o.all = true;
        break;
      case '--quiet':
        o.quiet = true;
        break;
      case '--state':
        o.state = value();
        break;
      case '--rediscover':
        o.rediscoverS = num('--rediscover', value(), 0, 86_400);
        break;
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  // Load mode: one telemetry request per second per terminal carrying that second's readings.
  if (rateSet && !batchSet) o.behaviour.batch = Math.max(1, Math.round(o.behaviour.rate));
  return o;
}
