import { isIP } from 'node:net';
import { LIVE_MAX_STREAMS_PER_ADDRESS } from '@forecourt/contract/live';
import { z } from 'zod';

const durationSeconds = (name: string, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(v.trim());
      if (!m) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a duration like 300, 90s, 5m or 1h` });
        return z.NEVER;
      }
      const n = Number(m[1]);
      const unit = m[2] ?? 's';
      const seconds = unit === 'ms' ? n / 1000 : unit === 'm' ? n * 60 : unit === 'h' ? n * 3600 : n;
      if (seconds <= 0) {
        ctx.addIssue({ code: 'custom', message: `${name} must be greater than 0` });
        return z.NEVER;
      }
      return seconds;
    });

const days = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a whole number of days from 1 to 36500' })
    .int('must be a whole number of days from 1 to 36500')
    .min(1, 'must be a whole number of days from 1 to 36500')
    .max(36_500, 'must be a whole number of days from 1 to 36500')
    .default(fallback);

const onOff = (fallback: boolean) =>
  z
    .enum(['on', 'off', 'true', 'false', '1', '0'], { error: 'must be on or off' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'on' || v === 'true' || v === '1'));

const url = (protocols: string[]) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      try {
        const u = new URL(v);
        if (!protocols.includes(u.protocol)) throw new Error('protocol');
        return v;
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be a URL starting with ${protocols.join(' or ')}//` });
        return z.NEVER;
      }
    });

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One address or CIDR: 10.0.0.1, 10.0.0.0/8, ::1, fd00::/8. */
function isAddressOrCidr(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `off` (default: X-Forwarded-For is ignored, the client is the socket's peer) or a comma-separated
 * list of the proxies whose X-Forwarded-For is believed — addresses, CIDRs, or loopback/linklocal/uniquelocal.
 * See docs/deploying.md.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx): false | string[] => {
    const value = (v ?? '').trim();
    if (value === '' || value === 'off' || value === 'false') return false;
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !PROXY_NAMES.has(e) && !isAddressOrCidr(e));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be off or a comma-separated list of proxy addresses or CIDRs (not valid: ${bad.join(', ') || 'an empty entry'})`,
      });
      return z.NEVER;
    }
    return entries;
  });

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/i;

/**
 * WEBHOOK_ALLOWED_HOSTS: host names, addresses and CIDRs that notification URLs may reach although they are (or
 * resolve to) internal addresses (docs/integrations.md). Unset: none.
 */
const allowedHosts = z
  .string()
  .optional()
  .transform((v, ctx): string[] => {
    const value = (v ?? '').trim();
    if (value === '') return [];
    const entries = value.split(',').map((e) =>
      e
        .trim()
        .replace(/^\[(.*)\]$/, '$1')
        .toLowerCase(),
    );
    const bad = entries.filter((e) => !isAddressOrCidr(e) && !HOST_NAME.test(e));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a comma-separated list of host names, addresses or CIDRs (not valid: ${bad.join(', ') || 'an empty entry'})`,
      });
      return z.NEVER;
    }
    return entries;
  });

/** Every retry's delay after a failed notification, in seconds: 10 s, 30 s, 2 min, 10 min, then hourly to ~24 h. */
export const DEFAULT_RETRY_DELAYS_S = [10, 30, 120, 600, ...Array.from({ length: 23 }, () => 3600)];

/** DELIVERY_RETRY_DELAYS: the delays between a notification's attempts (seconds, comma-separated); then it fails. */
const retryDelays = z
  .string()
  .optional()
  .transform((v, ctx): number[] => {
    const value = (v ?? '').trim();
    if (value === '') return DEFAULT_RETRY_DELAYS_S;
    const list = value.split(',').map((e) => Number(e.trim()));
    if (list.length > 100 || list.some((n) => !Number.isFinite(n) || n <= 0 || n > 86_400)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a comma-separated list of at most 100 delays in seconds, each above 0 and at most 86400',
      });
      return z.NEVER;
    }
    return list;
  });

export const EnvSchema = z.object({
  PORT: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return 8080;
      if (!/^\d+$/.test(v) || Number(v) > 65535) {
        ctx.addIssue({ code: 'custom', message: 'must be a port number from 0 to 65535' });
        return z.NEVER;
      }
      return Number(v);
    }),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATA_DIR: z.string().min(1).default('./data'),
  JWT_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (leave unset to generate one in DATA_DIR)')
    .optional(),
  SIMULATOR: onOff(true),
  SEED: z.enum(['demo', 'none', 'large'], { error: 'must be demo, none or large' }).default('demo'),
  /** Scales every count of SEED=large (1 = 5,000 sites, 10M telemetry rows; 0.1 suits PGlite). */
  LARGE_SCALE: z.coerce
    .number({ error: 'must be a number above 0, at most 10' })
    .gt(0, 'must be a number above 0, at most 10')
    .max(10, 'must be a number above 0, at most 10')
    .default(1),
  /** SEED=large with 90 days of telemetry at one reading per 5 minutes and two years of roll-ups (bench:history). */
  LARGE_HISTORY: onOff(false),
  WEATHER_API_KEY: z.string().optional(),
  WEATHER_URL: url(['http:', 'https:']),
  GEO_URL: url(['http:', 'https:']),
  /** open-meteo (keyless, default) or openweathermap (default when WEATHER_API_KEY is set). */
  WEATHER_PROVIDER: z
    .enum(['open-meteo', 'openweathermap'], { error: 'must be open-meteo or openweathermap' })
    .optional(),
  /** nominatim (keyless, default) or google (default when GEO_API_KEY is set). */
  GEO_PROVIDER: z.enum(['nominatim', 'google'], { error: 'must be nominatim or google' }).optional(),
  GEO_API_KEY: z.string().optional(),
  /** How long one weather or geocoding call may take before the answer is 503 (milliseconds). */
  WEATHER_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a whole number of milliseconds from 100 to 60000' })
    .int('must be a whole number of milliseconds from 100 to 60000')
    .min(100, 'must be a whole number of milliseconds from 100 to 60000')
    .max(60_000, 'must be a whole number of milliseconds from 100 to 60000')
    .default(4_000),
  POLL_CACHE_MS: z.coerce
    .number({ error: 'must be a whole number of milliseconds from 0 to 12500' })
    .int('must be a whole number of milliseconds from 0 to 12500')
    .min(0, 'must be a whole number of milliseconds from 0 to 12500')
    .max(12_500, 'must be a whole number of milliseconds from 0 to 12500')
    .default(2_000),
  /** Open GET /api/live streams per client address on one node (docs/deploying.md); TRUST_PROXY names the address. */
  LIVE_MAX_STREAMS_PER_ADDRESS: z.coerce
    .number({ error: 'must be a whole number from 1 to 10000000' })
    .int('must be a whole number from 1 to 10000000')
    .min(1, 'must be a whole number from 1 to 10000000')
    .max(10_000_000, 'must be a whole number from 1 to 10000000')
    .default(LIVE_MAX_STREAMS_PER_ADDRESS),
  SMTP_URL: url(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().default('Forecourt <no-reply@forecourt.local>'),
  PUBLIC_URL: url(['http:', 'https:']),
  ZENDESK_SUBDOMAIN: z
    .string()
    .regex(/^[a-z0-9-]+$/i, 'must be the subdomain only, e.g. mycompany')
    .optional(),
  ZENDESK_EMAIL: z.string().optional(),
  ZENDESK_TOKEN: z.string().optional(),
  ZENDESK_URL: url(['http:', 'https:']),
  TILE_URL_ROAD: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  TILE_URL_SATELLITE: z
    .string()
    .default('https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}'),
  AUTH_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name')
    .default('Authorization'),
  REGISTRATION: z.enum(['open', 'closed'], { error: 'must be open or closed' }).default('open'),
  CONNECTIVITY_TIMEOUT: durationSeconds('CONNECTIVITY_TIMEOUT', 300),
  TRUST_PROXY: trustProxy,
  /** Raw telemetry is kept this many days, dropped a whole day's partition at a time (docs/scale.md). */
  RAW_RETENTION_DAYS: days(90),
  /** Hourly telemetry roll-ups are kept this many days, dropped a whole month's partition at a time. */
  ROLLUP_RETENTION_DAYS: days(730),
  /** Largest software package an agent may upload, in MiB (docs/rollouts.md); larger uploads are refused with 413. */
  PACKAGE_MAX_MB: z.coerce
    .number({ error: 'must be a whole number of MiB from 1 to 4096' })
    .int('must be a whole number of MiB from 1 to 4096')
    .min(1, 'must be a whole number of MiB from 1 to 4096')
    .max(4096, 'must be a whole number of MiB from 1 to 4096')
    .default(100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Bearer token of GET /metrics; unset: /metrics answers 404 (plugins/metrics.ts). */
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters (or unset to turn /metrics off)')
    .optional(),
  /** Host names, addresses and CIDRs notification URLs may reach although internal (services/outbound-http.ts). */
  WEBHOOK_ALLOWED_HOSTS: allowedHosts,
  /** Delays between a notification's attempts, seconds (services/deliveries.ts). */
  DELIVERY_RETRY_DELAYS: retryDelays,
  /** Delivered and failed notifications are kept this many days, then deleted by the leader (services/deliveries.ts). */
  DELIVERY_RETENTION_DAYS: days(30),
  /** json or pretty; unset: pretty when stdout is a terminal, else json (lib/logging.ts). */
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).optional(),
});

export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {}

/** Parse the environment; a bad value throws one line per variable naming it. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map(
      (i) => `${String(i.path[0])}: ${i.message} (got ${JSON.stringify(source[String(i.path[0])])})`,
    );
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  const env = result.data;
  const zendesk = [env.ZENDESK_SUBDOMAIN ?? env.ZENDESK_URL, env.ZENDESK_EMAIL, env.ZENDESK_TOKEN];
  if (zendesk.some(Boolean) && !zendesk.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration: ZENDESK_SUBDOMAIN (or ZENDESK_URL), ZENDESK_EMAIL and ZENDESK_TOKEN must be set together',
    );
  }
  return env;
}
