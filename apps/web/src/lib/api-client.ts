import { LIVE_CURSOR_HEADER } from '@forecourt/contract/live-cursor';
import type { ZodType } from 'zod';
import { apiUrl, authHeaders, type QueryValue } from './api-url.ts';
import { clearSession, sessionStore } from './auth/session.ts';
import { liveCursor, readsCursor } from './live-stream-state.ts';
import { leaveForLogin } from './unauthorized.ts';

export type ApiErrorKind = 'http' | 'network' | 'parse';

/** The one error shape every failed call turns into. */
export class ApiError extends Error {
  readonly status: number;
  readonly kind: ApiErrorKind;
  /** Messages from the body (`data.errors`, `non_field_errors`, `error_text`), possibly empty. */
  readonly errors: string[];
  readonly body: unknown;

  constructor(init: {
    status: number;
    kind: ApiErrorKind;
    errors: string[];
    body?: unknown;
    message?: string;
  }) {
    super(
      init.message ??
        init.errors[0] ??
        `Request failed (${init.kind}${init.status ? ` ${init.status}` : ''})`,
    );
    this.name = 'ApiError';
    this.status = init.status;
    this.kind = init.kind;
    this.errors = init.errors;
    this.body = init.body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body. */
  body?: unknown;
  /** A text body sent as is instead of JSON (a CSV upload), with its `Content-Type` in `headers`. */
  text?: string;
  /** Query parameters; undefined, null and '' are left out, arrays repeat the key. */
  query?: Record<string, QueryValue | QueryValue[]>;
  /** Parse the response with this contract schema. */
  schema?: ZodType<T>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * Whether a 401 ends the session (token cleared, sent to the login page).
   * Auth calls turn this off: a wrong password is an answer, not an expired session. @default true
   */
  handleUnauthorized?: boolean;
  /**
   * An action the server takes once per key (the pump, reboot and ticket actions): sent with an
   * `Idempotency-Key`, and sent once more with the same key when no answer came back (a network error), since
   * the first may have reached the server: a repeated key gets the first answer, the action is not done twice.
   */
  idempotent?: boolean;
}

/** How long an action with no answer waits before it is sent again with its key. */
export const IDEMPOTENT_RETRY_MS = 1_000;
/** How many more times it asks while the server is still handling the first (409 with Retry-After). */
export const IDEMPOTENT_BUSY_TRIES = 10;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An idempotent action's request (see RequestOptions.idempotent): when no answer comes back, once more with the
 * same key; the server may then still be handling the first and answer 409 with Retry-After (only its
 * idempotency check does), so it asks again, each second, for the first's answer.
 */
async function sendAction(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
  }
  for (let tries = 0; ; tries++) {
    await delay(IDEMPOTENT_RETRY_MS);
    const response = await fetch(url, init);
    const busy = response.status === 409 && response.headers.has('retry-after');
    if (!busy || tries >= IDEMPOTENT_BUSY_TRIES) return response;
  }
}

/** 32 hex digits. From getRandomValues, which (unlike randomUUID) a console served over plain HTTP has too. */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

export { setUnauthorizedHandler } from './unauthorized.ts';

/** A signed-in call was refused (401): the session ends and the login page shows (the stream too). */
export function endUnauthorizedSession() {
  clearSession();
  leaveForLogin();
}

export { apiUrl, authHeaders };

export function errorsFromBody(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const b = body as Record<string, unknown>;
  const data = b.data as Record<string, unknown> | undefined;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const fromData = list(data?.errors);
  if (fromData.length) return fromData;
  const nonField = list(b.non_field_errors);
  if (nonField.length) return nonField;
  if (typeof b.error_text === 'string' && b.error_text) return [b.error_text];
  return [];
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || /^[[{]/.test(text.trim())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The last parsed answer of each checked GET (per token and URL) with its ETag. The next request of the
 * same URL sends `If-None-Match`; a 304 then hands back the very same value, so an unchanged poll costs
 * no JSON parse, no schema check and no re-render (the polled map of thousands of terminals).
 */
const lastAnswers = new Map<string, { etag: string; value: unknown }>();
const LAST_ANSWERS_MAX = 200;

// Signing out forgets them all.
sessionStore.subscribe(() => {
  if (!sessionStore.get().token) {
    lastAnswers.clear();
  }
});

function rememberAnswer(key: string, etag: string, value: unknown) {
  lastAnswers.delete(key);
  lastAnswers.set(key, { etag, value });
  if (lastAnswers.size > LAST_ANSWERS_MAX) {
    const oldest = lastAnswers.keys().next().value;
    if (oldest !== undefined) lastAnswers.delete(oldest);
  }
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const { method = 'GET', body, text, query, schema, signal, headers, handleUnauthorized = true } = options;
  const idempotencyKey = options.idempotent ? newIdempotencyKey() : undefined;
  const token = sessionStore.get().token;
  const url = apiUrl(path, query);
  const answerKey = method === 'GET' && schema ? `${token}\n${url}` : null;
  // A read after a change the stream told of is answered from no earlier than that change (any node).
  const cursor = method === 'GET' ? liveCursor.get() : null;
  const last = answerKey ? lastAnswers.get(answerKey) : undefined;
  const init: RequestInit = {
    method,
    signal,
    headers: {
      Accept: 'application/json',
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...authHeaders(token),
      ...(last ? { 'If-None-Match': last.etag } : {}),
      ...(cursor ? { [LIVE_CURSOR_HEADER]: cursor } : {}),
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      ...headers,
    },
    body: text ?? (body !== undefined ? JSON.stringify(body) : undefined),
  };

  // How up to date the answer is (X-Live-Cursor), for where the stream of changes resumes (lib/live-stream-state.ts).
  const readEpoch = method !== 'GET' ? null : readsCursor.epoch();
  let response: Response;
  try {
    response = await (idempotencyKey ? sendAction(url, init) : fetch(url, init));
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, kind: 'network', errors: [], message: (error as Error)?.message });
  }

  if (readEpoch !== null && (response.ok || response.status === 304)) {
    readsCursor.answered(response.headers.get(LIVE_CURSOR_HEADER), readEpoch);
  }
  if (response.status === 304 && last && answerKey) {
    rememberAnswer(answerKey, last.etag, last.value);
    return last.value as T;
  }
  const payload = await readBody(response);
  if (!response.ok) {
    if (response.status === 401 && handleUnauthorized && token) endUnauthorizedSession();
    throw new ApiError({
      status: response.status,
      kind: 'http',
      errors: errorsFromBody(payload),
      body: payload,
    });
  }
  if (!schema) return payload as T;
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      kind: 'parse',
      errors: [],
      body: payload,
      message: `Unexpected response from ${path}: ${parsed.error.issues[0]?.message ?? 'invalid shape'}`,
    });
  }
  const etag = response.headers.get('etag');
  if (answerKey) {
    if (etag) rememberAnswer(answerKey, etag, parsed.data);
    else lastAnswers.delete(answerKey);
  }
  return parsed.data;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body: body ?? {} }),
  delete: <T>(path: string, options?: Omit<RequestOptions<T>, 'method'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** The text to show for a failed call: the server's message, else the error's own. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.errors[0] ?? error.message;
  return error instanceof Error ? error.message : String(error);
}
