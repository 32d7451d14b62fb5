import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Change, isPublicChange } from '../repositories/change-repository.ts';

/**
 * Keeps what this node holds in memory in step with every node's writes (docs/deploying.md "Several nodes on one PostgreSQL"), from the change
 * feed (services/change-feed.ts), which hands over every change committed on any node, this one included:
 * - every public change drops the shared snapshots of its agent, company and site (a write on this node also
 *   drops them at once through `app.placeChanged`, so a read right after it on this node is never stale);
 * - 'pump' and 'reboot' changes wake the device long-polls of their terminal here (a command queued through
 *   another node reaches a device waiting on this one); 'device' changes (token rotated, terminal decommissioned)
 *   drop the cached token and wake them too: the long-poll checks its token in the database again;
 * - 'connectivity' changes make this node's next heartbeat of that terminal check the database again;
 * - 'session' changes forget the user's cached principal and read the revoked tokens again; 'fleet' changes drop
 *   the location cache and the cached device tokens of the place.
 */
export const nodeSyncPlugin = fp(
  async (app: FastifyInstance) => {
    const { repos } = app;
    const apply = (changes: Change[]) => {
      /** Scopes whose snapshots go, as one Location each (coalesced: a batch names few places). */
      const places = new Map<string, { agentId?: number; companyId?: number; siteId?: number }>();
      let revoked = false;
      let fleet = false;
      for (const c of changes) {
        switch (c.kind) {
          case 'session':
            if (c.userId != null) repos.principals.forget(c.userId);
            revoked = true;
            continue;
          case 'device':
            if (c.terminalId != null) {
              app.deviceTokens.forgetTerminal(c.terminalId);
              repos.org.forget(c.terminalId);
              app.commands.recheck(c.terminalId);
            }
            continue;
          case 'pump':
          case 'reboot':
            if (c.terminalId != null) app.commands.recheck(c.terminalId);
            break;
          case 'connectivity':
            if (c.terminalId != null) app.heartbeats.connectivityChanged(c.terminalId);
            break;
          case 'fleet':
            fleet = true;
            app.deviceTokens.forgetPlace(c);
            break;
        }
        if (!isPublicChange(c.kind)) continue;
        if (c.agentId == null && c.companyId == null && c.siteId == null) {
          // A change that names only its terminal: where it sits is looked up (cached).
          if (c.terminalId != null) app.placeChanged({ terminalId: c.terminalId });
          continue;
        }
        const key = `${c.agentId}|${c.companyId}|${c.siteId}`;
        if (!places.has(key)) {
          places.set(key, {
            agentId: c.agentId ?? undefined,
            companyId: c.companyId ?? undefined,
            siteId: c.siteId ?? undefined,
          });
        }
      }
      if (fleet) repos.org.forget();
      for (const place of places.values()) app.snapshots.invalidate(place);
      if (revoked) repos.revoked.reload();
    };
    const unsubscribe = app.feed.subscribe(apply);
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'node-sync', dependencies: ['snapshot-cache'] },
);
