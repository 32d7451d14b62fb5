import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest, HttpError } from '../lib/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed, set by `app.idempotent`. */
    idempotencyKey: { userId: number; key: string } | null;
  }
  interface FastifyInstance {
    /**
     * preHandler of the actions that are safe to retry (after authentication): a request with an
     * `Idempotency-Key` header is handled once per user and key; a repeat gets the first answer (status and body).
     */
    idempotent: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const PRUNE_EVERY_MS = 3_600_000;

/** Documentation appended to each action that honours the header. */
export const IDEMPOTENCY_DESCRIPTION =
  ' Safe to retry: with an `Idempotency-Key` header (1 to 255 visible ASCII characters), a repeated key of the ' +
  'same user answers the first answer again (status and body, with `Idempotent-Replayed: true`) for 24 hours; the ' +
  'same key with another request answers 422, and while the first is still being handled 409.';

/** Key order does not change what a JSON body means. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const fingerprintOf = (request: FastifyRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.url}\n${canonical(request.body)}`)
    .digest('hex');

/**
 * Idempotency-Key for the pump, reboot and ticket actions (docs/decisions/0005-commands-and-devices.md). The
 * first answer is kept in PostgreSQL (`idempotency_keys`), so a retry that reaches another node is answered the
 * same. Its onSend hook is registered before compression, so it stores the JSON text of the answer.
 */
export const idempotencyPlugin = fp(async (app: FastifyInstance) => {
  const repo = app.repos.idempotency;
  app.decorateRequest('idempotencyKey', null);

  app.decorate('idempotent', async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined) return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (Array.isArray(raw) || !KEY_PATTERN.test(key)) {
      throw badRequest('Idempotency-Key must be one value of 1 to 255 visible ASCII characters.');
    }
    const userId = request.principal!.userId;
    const claim = await repo.reserve(userId, key, fingerprintOf(request));
    switch (claim.kind) {
      case 'reserved':
        request.idempotencyKey = { userId, key };
        return;
      case 'replay':
        reply
          .status(claim.status)
          .header('content-type', 'application/json; charset=utf-8')
          .header('idempotent-replayed', 'true');
        return reply.send(claim.body);
      case 'mismatch': {
        const text = 'This Idempotency-Key was already used for a different request: use a new key.';
        throw new HttpError(422, [text], { error: true, error_text: text });
      }
      case 'busy': {
        const text = 'A request with this Idempotency-Key is still being handled: retry in a moment.';
        reply.header('retry-after', '1');
        throw new HttpError(409, [text], { error: true, error_text: text });
      }
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claimed = request.idempotencyKey;
    if (!claimed) return payload;
    request.idempotencyKey = null;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await repo.release(claimed.userId, claimed.key);
    } else {
      await repo.complete(claimed.userId, claimed.key, reply.statusCode, payload);
    }
    return payload;
  });

  const prune = setInterval(() => {
    repo.prune().catch((err) => app.log.warn({ err }, 'pruning idempotency keys failed'));
  }, PRUNE_EVERY_MS);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));
});
