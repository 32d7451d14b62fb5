import { createHash, randomBytes } from 'node:crypto';
import type { DeviceTerminal } from '../repositories/device-repository.ts';
import type { Repositories } from '../repositories/index.ts';

const CACHE_MS = 15_000;
const MAX_CACHED = 100_000;

export const hashDeviceToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** `Authorization: Device <token>` → the token, else null. */
export function readDeviceToken(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const m = /^Device\s+(\S{16,200})\s*$/i.exec(value.trim());
  return m ? m[1] : null;
}

/**
 * Per-terminal device secrets: 256 random bits shown once, stored as their sha-256 (a fast hash is enough for a
 * random secret; nothing to brute-force). Lookups are cached briefly. Issuing a token (or retiring one) is a unit of
 * work recording a 'device' change: every node, this one before `issue` answers, drops the terminal's cached token
 * and wakes its long-polls, which check the token in the database before anything is handed out (plugins/node-sync.ts).
 * A rotated token stops working at once, a waiting long-poll included (docs/decisions/0005-commands-and-devices.md).
 */
export function createDeviceTokenService(repos: Pick<Repositories, 'devices' | 'work'>) {
  const { devices: repo, work } = repos;
  const cache = new Map<string, { at: number; terminal: DeviceTerminal | null }>();

  function forgetTerminal(terminalId: number) {
    for (const [hash, entry] of cache) if (entry.terminal?.id === terminalId) cache.delete(hash);
  }

  /**
   * Drops the cached terminals of a place that an administrator changed (a 'fleet' change on the feed, from any
   * node): the most precise id it names decides (terminal, else site, else company, else agent).
   */
  function forgetPlace(place: {
    terminalId?: number | null;
    siteId?: number | null;
    companyId?: number | null;
    agentId?: number | null;
  }) {
    const match: (t: DeviceTerminal) => boolean =
      place.terminalId != null
        ? (t) => t.id === place.terminalId
        : place.siteId != null
          ? (t) => t.siteId === place.siteId
          : place.companyId != null
            ? (t) => t.companyId === place.companyId
            : place.agentId != null
              ? (t) => t.agentId === place.agentId
              : () => false;
    for (const [hash, entry] of cache) if (entry.terminal && match(entry.terminal)) cache.delete(hash);
  }

  /** `resolve` for a token already hashed (`hashDeviceToken`): the device API hashes each request's token once. */
  async function resolveHash(hash: string): Promise<DeviceTerminal | null> {
    const hit = cache.get(hash);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.terminal;
    const terminal = await repo.terminalByTokenHash(hash);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(hash, { at: Date.now(), terminal });
    return terminal;
  }

  return {
    /**
     * A new token for the terminal (the old one stops working), with its audit entry: who provisioned it and when,
     * never the secret (docs/product.md#fleet-administration). Answers the secret, shown only this once.
     */
    async issue(
      terminalId: number,
      by: { userId: number; username: string; agentId: number | null },
    ): Promise<string> {
      const token = `fcd_${randomBytes(32).toString('base64url')}`;
      await work.run(async (tx) => {
        const place = {
          ...(await repo.setTokenHash(tx, terminalId, hashDeviceToken(token), by.userId)),
          terminalId,
        };
        // 'device': every node drops the old token and wakes the long-polls; 'fleet': the terminal now has a token.
        await tx.changed([
          { kind: 'device', ...place },
          { kind: 'fleet', ...place },
        ]);
        await tx.audit({
          userId: by.userId,
          username: by.username,
          agentId: by.agentId,
          action: 'provision_token',
          entity: 'terminal',
          entityId: terminalId,
          before: null,
          after: { terminal: terminalId, issued_at: new Date().toISOString() },
        });
      });
      return token;
    },

    /** Cuts the terminal's token off with no successor: it and its waiting long-polls get 401. */
    async retire(terminalId: number): Promise<void> {
      await work.run(async (tx) => {
        if (await repo.deleteToken(tx, terminalId)) await tx.changed({ kind: 'device', terminalId });
      });
    },

    async resolve(token: string): Promise<DeviceTerminal | null> {
      return resolveHash(hashDeviceToken(token));
    },

    resolveHash,
    forgetTerminal,
    forgetPlace,
  };
}
export type DeviceTokenService = ReturnType<typeof createDeviceTokenService>;
