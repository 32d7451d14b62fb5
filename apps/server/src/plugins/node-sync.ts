import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Change, type ChangeInput, isPublicChange } from '../repositories/change-repository.ts';

/**
 * Keeps what this node holds in memory in step with every node's writes (docs/deploying.md "Several nodes on one PostgreSQL"), from the change
 * feed (services/change-feed.ts), which hands over every change committed on any node, this one included:
 * - every public change drops the shared snapshots of its agent, company and site. This is the only place caches of
 *   polled reads are dropped: a write on this node waits, after its commit, until its last change has passed this
 *   node's feed (repositories/unit-of-work.ts), so a read right after it on this node is never stale;
 * - 'pump' and 'reboot' changes wake the device long-polls of their terminal here (a command queued through
 *   another node reaches a device waiting on this one); 'device' changes (token rotated, terminal decommissioned)
 *   drop the cached token and wake them too: the long-poll checks its token in the database again;
 * - 'connectivity' changes make this node's next heartbeat of that terminal check the database again;
 * - 'session' changes forget the user's cached principal and API keys and read the revoked tokens again; 'fleet' changes drop
 *   the location cache, the cached device tokens of the place and what the alert rules remember of the rules.
 */
/** A change this node's write recorded, as the feed would hand it over (its id is not needed to apply it). */
const ownChange = (c: ChangeInput): Change => ({
  id: 0,
  kind: c.kind,
  agentId: c.agentId || null,
  companyId: c.companyId || null,
  siteId: c.siteId || null,
  terminalId: c.terminalId || null,
  pumpId: c.pumpId || null,
  userId: c.userId || null,
  at: new Date(),
});

export const nodeSyncPlugin = fp(
  async (app: FastifyInstance) => {
    const { repos } = app;
    /** A change that names only its terminal: where the terminal sits is looked up (cached), then its place dropped. */
    const terminalChanged = (terminalId: number) => {
      void repos.org
        .locate('terminal', terminalId)
        .then((loc) => {
          if (loc) app.snapshots.invalidate(loc);
        })
        .catch(() => {});
    };
    const apply = (changes: Change[]) => {
      /** Scopes whose snapshots go, as one Location each (coalesced: a batch names few places). */
      const places = new Map<string, { agentId?: number; companyId?: number; siteId?: number }>();
      let revoked = false;
      let fleet = false;
      for (const c of changes) {
        switch (c.kind) {
          case 'session':
            if (c.userId != null) {
              repos.principals.forget(c.userId);
              app.apiKeys.forget(c.userId);
            }
            revoked = true;
            continue;
          case 'device':
            if (c.terminalId != null) {
              app.deviceTokens.forgetTerminal(c.terminalId);
              repos.org.forget(c.terminalId);
              app.commands.recheck(c.terminalId);
            }
            continue;
          case 'command':
            // A rollout's install command (services/rollouts.ts): wakes the long-poll, reaches no stream.
            if (c.terminalId != null) app.commands.recheck(c.terminalId);
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
            // A rule written, or a terminal's tags changed: this node looks at the rules again.
            app.rules.forget();
            break;
        }
        if (!isPublicChange(c.kind)) continue;
        if (c.agentId == null && c.companyId == null && c.siteId == null) {
          // A change that names only its terminal: where it sits is looked up (cached).
          if (c.terminalId != null) terminalChanged(c.terminalId);
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
    // A write on this node returns once its own changes have been applied here, by this same function, at once: a
    // read right after it on this node is never stale. The feed applies them again when it reaches them (dropping a
    // cache twice is harmless); live streams hear of them from the feed only. Waiting for the feed itself to pass
    // them was measured and rejected (docs/decisions/0016-write-path.md).
    const unsettle = repos.work.settleThrough(async ({ changes }) => {
      apply(changes.map(ownChange));
    });
    // While the server closes the feed stops: writes made meanwhile (the last heartbeats) do not wait for it.
    app.addHook('preClose', async () => unsettle());
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'node-sync', dependencies: ['snapshot-cache'] },
);
