import type { z } from 'zod';
import { badRequest } from '../../lib/errors.ts';

const MAX_ERRORS = 20;

/**
 * A device write: one object or an array of them. Every item is checked; a bad one names its index and field
 * (`[3].battery_life: battery_life must be 0 to 100`, or `battery_life must be 0 to 100` for a single object)
 * and nothing is stored.
 */
export function parseBatch<T>(schema: z.ZodType<T>, body: unknown, max: number): T[] {
  const isArray = Array.isArray(body);
  if (!isArray && (body === null || typeof body !== 'object')) {
    throw badRequest('body must be a JSON object or an array of objects');
  }
  const items: unknown[] = isArray ? (body as unknown[]) : [body];
  if (items.length === 0) throw badRequest('body must contain at least one item');
  if (items.length > max) throw badRequest(`body must contain at most ${max} items (got ${items.length})`);

  const out: T[] = new Array(items.length);
  const errors: string[] = [];
  let bad = 0;
  let reported = 0;
  for (let i = 0; i < items.length; i++) {
    const r = schema.safeParse(items[i]);
    if (r.success) {
      out[i] = r.data;
      continue;
    }
    bad++;
    if (errors.length >= MAX_ERRORS) continue;
    reported++;
    const prefix = isArray ? `[${i}]` : '';
    for (const issue of r.error.issues) {
      const path = issue.path.map(String).join('.');
      const where = [prefix, path].filter(Boolean).join('.');
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) errors.push(`${[where, key].filter(Boolean).join('.')}: unknown field`);
      } else if (!where) {
        errors.push(issue.message);
      } else if (!isArray && issue.message.startsWith(path)) {
        errors.push(issue.message);
      } else {
        errors.push(`${where}: ${issue.message}`);
      }
    }
  }
  if (bad) {
    if (bad > reported)
      errors.push(`... and ${bad - reported} more invalid items (${bad} of ${items.length})`);
    throw badRequest(errors);
  }
  return out;
}
