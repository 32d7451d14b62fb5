import { isApiError } from '../../../../../lib/api-client.ts';

export interface ServerErrors {
  /** Messages naming a field of the form, by field. */
  byField: Record<string, string>;
  /** The rest (the form shows them above its buttons). */
  rest: string[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Spreads a failed request's messages over the form's fields: a 400 names every bad field
 * (`timezone: ...`, `lat must be ...`) and a 409 the duplicate one (docs/product.md#api-conventions).
 * A message is given to the field it starts with, else to the first field it names as a word
 * (`terminal_id` or `terminal id`); longer names win, so `site_id` is not taken for `id`.
 */
export function serverErrors(error: unknown, fields: readonly string[]): ServerErrors {
  const messages = isApiError(error)
    ? error.errors.length
      ? error.errors
      : [error.message]
    : error instanceof Error
      ? [error.message]
      : [];
  const byLength = [...fields].sort((a, b) => b.length - a.length);
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  for (const message of messages) {
    const lower = message.toLowerCase();
    const variants = (f: string) => [f.toLowerCase(), f.toLowerCase().replace(/_/g, ' ')];
    const leading = byLength.find((f) =>
      variants(f).some((v) => lower === v || new RegExp(`^${escapeRegExp(v)}(\\b|[:.\\[])`).test(lower)),
    );
    const named =
      leading ??
      byLength.find((f) =>
        variants(f).some((v) => new RegExp(`(^|[^a-z_])${escapeRegExp(v)}([^a-z_]|$)`).test(lower)),
      );
    if (named && !(named in byField)) byField[named] = message;
    else rest.push(message);
  }
  return { byField, rest };
}
