import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_PREFIX_LENGTH,
  API_KEY_START,
  API_KEY_TEXTS,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
} from '@forecourt/contract/api-keys';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiKeyGrant } from '../repositories/api-key-repository.ts';
import type { Repositories } from '../repositories/index.ts';
import type { Principal } from '../repositories/principal-repository.ts';
import { ACCOUNT_DISABLED } from './accounts.ts';
import type { AuditEntry, Tx } from './actor.ts';
import { missing } from './domain-errors.ts';

/** How long a key looked up stays cached; every key written drops its user's keys on every node at once. */
const CACHE_MS = 30_000;
const MAX_CACHED = 10_000;
/** `last_used_at` is written at most this often per key. */
export const TOUCH_EVERY_MS = 60_000;

/** A fast hash is enough: the token is 256 random bits, there is nothing to guess. */
export const hashApiKey = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export type ApiKeyCheck =
  | { ok: true; principal: Principal; key: ApiKeyGrant }
  | { ok: false; message: string };

export interface ApiKeyServiceOptions {
  repos: Repositories;
  log: FastifyBaseLogger;
  /** The clock (tests move it). */
  now?: () => number;
}

/**
 * API keys (docs/integrations.md "API keys"): each user makes, lists and deletes its own; a request with one acts
 * as its user. Creating and deleting a key is one unit of work with its audit entry and a 'session' change of its
 * user, on which every node drops the user's cached keys (plugins/node-sync.ts) and re-checks the user's live
 * streams: a deleted key stops working at once everywhere. The check itself is cached per node like the
 * principal it leads to; `last_used_at` is written at most once a minute per key.
 */
export function createApiKeyService(opts: ApiKeyServiceOptions) {
  const { repos, log } = opts;
  const { apiKeys, principals, work } = repos;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { at: number; key: ApiKeyGrant | null }>();
  /** Bumped by every forget: a lookup that started before one is not cached (it may have read a deleted key). */
  let epoch = 0;
  /** When this node last wrote `last_used_at` of a key. */
  const touched = new Map<number, number>();

  const auditOf = async (
    tx: Tx,
    principal: Principal,
    action: 'create' | 'delete',
    key: ApiKey,
  ): Promise<AuditEntry> => ({
    userId: principal.userId,
    username: principal.username,
    agentId: principal.agentId ?? (await apiKeys.agentOf(tx, principal.userId)),
    action,
    entity: 'api_key',
    entityId: key.id,
    before: action === 'delete' ? key : null,
    after: action === 'create' ? key : null,
  });

  async function lookup(hash: string): Promise<ApiKeyGrant | null> {
    const hit = cache.get(hash);
    if (hit && now() - hit.at < CACHE_MS) return hit.key;
    const started = epoch;
    const key = await apiKeys.byHash(hash);
    if (started === epoch) {
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(hash, { at: now(), key });
    }
    return key;
  }

  /**
   * Records the use unless this node recorded one less than a minute ago (or the row says so): one short write a
   * minute per key, awaited so that the list read right after a first use shows it. A failure is only logged.
   */
  async function touch(key: ApiKeyGrant, at: number): Promise<void> {
    const last = Math.max(touched.get(key.id) ?? 0, key.lastUsedAt?.getTime() ?? 0);
    if (at - last < TOUCH_EVERY_MS) return;
    if (touched.size >= MAX_CACHED) touched.clear();
    touched.set(key.id, at);
    await apiKeys
      .touch(key.id, new Date(at))
      .catch((err) => log.warn({ err, apiKey: key.id }, 'last use of an API key not recorded'));
  }

  return {
    list: (userId: number, o: { limit: number; before?: string }) => apiKeys.list(userId, o),

    /** A new key of the user: its token is in this answer and nowhere else. */
    async create(principal: Principal, body: ApiKeyCreate): Promise<ApiKeyCreated> {
      const token = `${API_KEY_START}${randomBytes(32).toString('base64url')}`;
      const key = await work.run(async (tx) => {
        const created = await apiKeys.insert(tx, {
          userId: principal.userId,
          name: body.name,
          prefix: token.slice(0, API_KEY_PREFIX_LENGTH),
          tokenHash: hashApiKey(token),
          readOnly: body.read_only,
          expiresAt: body.expires_at,
        });
        await tx.audit(await auditOf(tx, principal, 'create', created));
        await tx.changed({ kind: 'session', userId: principal.userId });
        return created;
      });
      return { ...key, token };
    },

    /** Deletes one of the user's keys (another user's is unknown: 404); answers it as it was. */
    async remove(principal: Principal, id: number): Promise<ApiKey> {
      return work.run(async (tx) => {
        const removed = await apiKeys.remove(tx, principal.userId, id);
        if (!removed) throw missing('API key', id);
        await tx.audit(await auditOf(tx, principal, 'delete', removed));
        await tx.changed({ kind: 'session', userId: principal.userId });
        return removed;
      });
    },

    /**
     * The user a key acts as: refused when the key is unknown (or deleted) or expired, or its user is gone or
     * disabled, or it was made before the user's last disable (like a session begun then).
     */
    async check(token: string): Promise<ApiKeyCheck> {
      const key = await lookup(hashApiKey(token));
      if (!key) return { ok: false, message: API_KEY_TEXTS.unknown };
      const at = now();
      if (key.expiresAt && key.expiresAt.getTime() <= at)
        return { ok: false, message: API_KEY_TEXTS.expired };
      const principal = await principals.load(key.userId);
      if (!principal) return { ok: false, message: 'User not found.' };
      if (principal.disabled) return { ok: false, message: ACCOUNT_DISABLED };
      if (principal.tokensValidAfter && key.createdAt < principal.tokensValidAfter)
        return { ok: false, message: API_KEY_TEXTS.beforeDisable };
      await touch(key, at);
      return { ok: true, principal, key };
    },

    /** Drops the cached keys of a user (every user's when none is named): the change feed calls it. */
    forget(userId?: number) {
      epoch++;
      if (userId === undefined) {
        cache.clear();
        return;
      }
      for (const [hash, entry] of cache) if (entry.key?.userId === userId) cache.delete(hash);
    },
  };
}
export type ApiKeyService = ReturnType<typeof createApiKeyService>;
