import { createHash } from 'node:crypto';
import { AuthResultSchema } from '@forecourt/contract/auth';
import {
  AcceptedSchema,
  CommandAckResponseSchema,
  type DeviceCommand,
  DeviceCommandSchema,
  type DeviceInfo,
  DeviceInfoSchema,
} from '@forecourt/contract/device';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import { z } from 'zod';

/** How the simulator names itself to the server. */
export const SIMULATOR_USER_AGENT = 'forecourt-simulator';

/** A failed call: `status` 0 when the server could not be reached. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 15_000;

async function call<T>(
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: unknown;
    signal?: AbortSignal;
    timeoutMs?: number;
  },
  schema: z.ZodType<T>,
): Promise<T> {
  const timeout = AbortSignal.timeout(init.timeoutMs ?? TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        // The server logs the simulator's successful calls at debug (apps/server/src/plugins/request-log.ts).
        'user-agent': SIMULATOR_USER_AGENT,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal,
    });
  } catch (err) {
    throw new ApiError(0, `${init.method} ${url}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    let detail = text.slice(0, 300);
    try {
      const errors = (JSON.parse(text) as { data?: { errors?: string[] } }).data?.errors;
      if (errors?.length) detail = errors.join('; ');
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, `${init.method} ${url}: ${res.status} ${detail}`);
  }
  const parsed = schema.safeParse(text ? JSON.parse(text) : null);
  if (!parsed.success)
    throw new ApiError(res.status, `${init.method} ${url}: unexpected answer ${text.slice(0, 200)}`);
  return parsed.data;
}

/** The console API, as an installer with an agent account uses it. */
export class ConsoleClient {
  private token: string | null = null;
  constructor(readonly base: string) {}

  async login(username: string, password: string): Promise<void> {
    const r = await call(
      `${this.base}/api/auth/login`,
      { method: 'POST', headers: {}, body: { username, password, rememberMe: false } },
      AuthResultSchema,
    );
    if (!r.token)
      throw new ApiError(401, `login as ${username} failed: ${r.data.errors?.join('; ') ?? 'no token'}`);
    this.token = r.token;
  }

  get<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    return call(`${this.base}${path}`, { method: 'GET', headers: this.auth() }, schema);
  }

  async deviceToken(terminalId: number): Promise<string> {
    const r = await call(
      `${this.base}/api/terminal/${terminalId}/device-token/`,
      { method: 'POST', headers: this.auth() },
      DeviceTokenResponseSchema,
    );
    return r.token;
  }

  private auth(): Record<string, string> {
    if (!this.token) throw new ApiError(401, 'not signed in');
    return { authorization: `JWT ${this.token}` };
  }
}

/** The device API, as one terminal speaks it. */
export class DeviceClient {
  constructor(
    readonly base: string,
    public token: string,
  ) {}

  private headers() {
    return { authorization: `Device ${this.token}` };
  }

  me(): Promise<DeviceInfo> {
    return call(
      `${this.base}/api/device/v1/me`,
      { method: 'GET', headers: this.headers() },
      DeviceInfoSchema,
    );
  }

  /** A write (telemetry, events, shocks, transactions, pumps/status): answers how many were stored. */
  async send(path: string, body: unknown, signal?: AbortSignal): Promise<number> {
    const r = await call(
      `${this.base}/api/device/v1/${path}`,
      { method: 'POST', headers: this.headers(), body, signal },
      AcceptedSchema,
    );
    return r.accepted;
  }

  commands(waitS: number, signal?: AbortSignal): Promise<DeviceCommand[]> {
    return call(
      `${this.base}/api/device/v1/commands?wait=${waitS}`,
      { method: 'GET', headers: this.headers(), signal, timeoutMs: (waitS + 15) * 1000 },
      z.array(DeviceCommandSchema),
    );
  }

  /**
   * Downloads a package (`path` as an install command names it) with this terminal's token, hashing it as it
   * arrives: answers its size and sha-256 (the bytes are not kept).
   */
  async download(path: string, signal?: AbortSignal): Promise<{ size: number; sha256: string }> {
    const url = new URL(path, `${this.base}/`).toString();
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { ...this.headers(), 'user-agent': SIMULATOR_USER_AGENT },
        signal: signal ?? AbortSignal.timeout(5 * 60_000),
      });
    } catch (err) {
      throw new ApiError(0, `GET ${url}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => {});
      throw new ApiError(res.status, `GET ${url}: ${res.status}`);
    }
    const hash = createHash('sha256');
    let size = 0;
    for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(piece);
      size += piece.length;
    }
    return { size, sha256: hash.digest('hex') };
  }

  ack(id: number, result: 'ok' | 'failed', detail?: string) {
    return call(
      `${this.base}/api/device/v1/commands/${id}/ack`,
      { method: 'POST', headers: this.headers(), body: detail ? { result, detail } : { result } },
      CommandAckResponseSchema,
    );
  }
}
