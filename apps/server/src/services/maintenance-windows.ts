import type { Repositories } from '../repositories/index.ts';
import type { WindowFields, WindowRecord } from '../repositories/maintenance-repository.ts';
import { publicWindow } from '../repositories/rule-read-model.ts';
import type { RuleActor } from '../repositories/rule-repository.ts';
import { placeAudit, placeChange } from '../repositories/rule-sql.ts';

/**
 * Writing maintenance windows (docs/rules-and-maintenance.md): each write is one unit of work with its audit entry
 * (under the agent of the window's place) and a 'fleet' change of its place. A changed or ended window releases at
 * once the alerts it no longer covers (their mails are queued then).
 */
export function createMaintenanceService(repos: Pick<Repositories, 'maintenance' | 'work'>) {
  const { maintenance, work } = repos;
  return {
    create(actor: RuleActor, f: WindowFields, now: Date): Promise<WindowRecord> {
      return work.run(async (tx) => {
        const w = await maintenance.insert(tx, actor, f, now);
        await tx.audit(
          placeAudit(actor, w.place, {
            action: 'create',
            entity: 'maintenance_window',
            entityId: w.id,
            before: null,
            after: publicWindow(w),
          }),
        );
        await tx.changed(placeChange('fleet', w.place));
        return w;
      });
    },

    update(actor: RuleActor, before: WindowRecord, f: WindowFields, now: Date): Promise<WindowRecord> {
      return work.run(async (tx) => {
        const w = await maintenance.update(tx, before.id, f);
        const released = await maintenance.releaseWindow(tx, now, w.id);
        await tx.audit(
          placeAudit(actor, w.place, {
            action: 'update',
            entity: 'maintenance_window',
            entityId: w.id,
            before: publicWindow(before),
            after: publicWindow(w),
          }),
        );
        await tx.changed([...released, placeChange('fleet', before.place), placeChange('fleet', w.place)]);
        return w;
      });
    },

    /** Ends a window now (or, not yet begun, before it starts): it stays listed with its real end. */
    end(actor: RuleActor, before: WindowRecord, now: Date): Promise<void> {
      return work.run(async (tx) => {
        await maintenance.endNow(tx, before.id, now);
        const released = await maintenance.releaseWindow(tx, now, before.id);
        await tx.audit(
          placeAudit(actor, before.place, {
            action: 'end',
            entity: 'maintenance_window',
            entityId: before.id,
            before: publicWindow(before),
            after: {
              ends_at: new Date(
                Math.max(Date.parse(before.starts_at), Math.min(Date.parse(before.ends_at), now.getTime())),
              ).toISOString(),
            },
          }),
        );
        await tx.changed([...released, placeChange('fleet', before.place)]);
      });
    },
  };
}
