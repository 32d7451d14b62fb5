import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors.ts';

const NUL = '\u0000';

/** Where U+0000 first appears in `value` (a key or a text, however deep), as a field path; null: nowhere. */
export function nulPath(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path || 'body' : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Buffer.isBuffer(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes(NUL)) return at;
    const found = nulPath(inner, at, depth + 1);
    if (found) return found;
  }
  return null;
}

const refuse = (field: string) =>
  badRequest(`${field.replaceAll(NUL, '\\u0000')}: must not contain the NUL character (U+0000).`);

/**
 * Text containing U+0000 is refused with a 400 naming the field, for every route in one place: PostgreSQL
 * cannot store it in text, so it would otherwise reach the database as a 500. Headers, path parameters and
 * query parameters are checked as the request arrives (before authentication), the body once parsed.
 */
export const noNulPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    for (const [name, value] of Object.entries(request.headers)) {
      if ((Array.isArray(value) ? value.join('') : (value ?? '')).includes(NUL))
        throw refuse(`${name} header`);
    }
    const field = nulPath(request.params, '') ?? nulPath(request.query, '');
    if (field) throw refuse(field);
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const field = nulPath(request.body, '');
    if (field) throw refuse(field);
  });
});
