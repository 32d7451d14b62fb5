import type { Repositories } from '../repositories/index.ts';
import type { WindowFields, WindowRecord } from '../repositories/maintenance-repository.ts';
import { publicWindow } from '../repositories/rule-read-model.ts';
import type { RuleActor } from '../repositories/rule-repository.ts';
import { placeWrites } from './place-writes.ts';

const record = placeWrites<WindowRecord>('maintenance_window', publicWindow);

/**
 * Writing maintenance windows (docs/rules-and-maintenance.md): each write is one unit of work with its audit entry
 * (under the agent of the window's place) and a 'fleet' change of its place. A changed or ended window releases at
 * once the alerts it no longer covers (their mails are queued then); the leader's sweep releases those of windows
 * that ended by themselves (`release`).
 */
export function createMaintenanceService(repos: Pick<Repositories, 'maintenance' | 'work'>) {
  const { maintenance, work } = repos;
  return {
    create(actor: RuleActor, f: WindowFields, now: Date): Promise<WindowRecord> {
      return work.run(async (tx) => {
        const w = await maintenance.insert(tx, actor, f, now);
        await record(tx, actor, 'create', { before: null, after: w });
        return w;
      });
    },

    update(actor: RuleActor, before: WindowRecord, f: WindowFields, now: Date): Promise<WindowRecord> {
      return work.run(async (tx) => {
        const w = await maintenance.update(tx, before.id, f);
        const changes = await maintenance.releaseWindow(tx, now, w.id);
        await record(tx, actor, 'update', { before, after: w, changes });
        return w;
      });
    },

    /** Ends a window now (or, not yet begun, before it starts): it stays listed with its real end. */
    end(actor: RuleActor, before: WindowRecord, now: Date): Promise<void> {
      return work.run(async (tx) => {
        await maintenance.endNow(tx, before.id, now);
        const changes = await maintenance.releaseWindow(tx, now, before.id);
        const endsAt = Math.max(
          Date.parse(before.starts_at),
          Math.min(Date.parse(before.ends_at), now.getTime()),
        );
        await record(tx, actor, 'end', {
          before,
          after: null,
          afterShown: { ends_at: new Date(endsAt).toISOString() },
          changes,
        });
      });
    },

    /**
     * The sweep: the alerts still active once their window stops covering them are notified now (one unit of work
     * with their 'alert' changes). Answers how many terminals had alerts released.
     */
    release(now: Date): Promise<number> {
      return work.run(async (tx) => {
        const changes = await maintenance.release(tx, now);
        await tx.changed(changes);
        return changes.length;
      });
    },
  };
}
export type MaintenanceService = ReturnType<typeof createMaintenanceService>;
