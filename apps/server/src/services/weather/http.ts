import { ProviderUnavailableError } from './errors.ts';

const USER_AGENT = 'Forecourt/0.1 (fuel-site console; weather widget)';
const MAX_BODY = 4 * 1024 * 1024;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** GET a provider's JSON within `timeoutMs`; every failure is a ProviderUnavailableError naming the host. */
export async function getJson(url: URL, timeoutMs: number): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json', 'user-agent': USER_AGENT, 'accept-language': 'en' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new ProviderUnavailableError(`no answer from ${url.host} within ${seconds(timeoutMs)}`);
    }
    throw new ProviderUnavailableError(
      `cannot reach ${url.host} (${e.cause?.code ?? e.cause?.message ?? e.message})`,
    );
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    throw new ProviderUnavailableError(`no complete answer from ${url.host} within ${seconds(timeoutMs)}`);
  }
  if (!res.ok) {
    throw new ProviderUnavailableError(`${url.host} answered ${res.status} ${res.statusText}`.trim());
  }
  if (text.length > MAX_BODY) throw new ProviderUnavailableError(`${url.host} answered too much data`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderUnavailableError(`${url.host} answered something that is not JSON`);
  }
}
