import type { Acknowledger, AlertRow } from '../repositories/alert-repository.ts';
import type { Repositories } from '../repositories/index.ts';
import { num } from '../repositories/read-scope.ts';
import { missing } from './domain-errors.ts';

/**
 * What people do to alerts (docs/product.md#alert-lifecycle). Acknowledging is one unit of work: the alert, its
 * audit entry (under the alert's agent, so the agent's audit screen shows it) and an 'alert' change of its place.
 * Acknowledging again changes nothing: the first who, when and note stay.
 */
export function createAlertService(repos: Pick<Repositories, 'alerts' | 'work'>) {
  const { alerts, work } = repos;
  return {
    /** Acknowledges alert `id` and answers it as it now is; an unknown alert is not_found. */
    async acknowledge(id: number, by: Acknowledger, note: string | null, now: Date): Promise<AlertRow> {
      await work.run(async (tx) => {
        const alert = await alerts.acknowledge(tx, id, by, note, now);
        if (!alert) return;
        await tx.changed({
          kind: 'alert',
          agentId: alert.agent_id,
          companyId: alert.company_id,
          siteId: alert.site_id,
          terminalId: alert.terminal_id,
        });
        await tx.audit({
          at: now,
          userId: by.userId,
          username: by.username,
          agentId: alert.agent_id,
          action: 'acknowledge',
          entity: 'alert',
          entityId: num(alert.id),
          before: { acknowledged_at: null, acknowledged_by: null, note: null },
          after: { acknowledged_at: now.toISOString(), acknowledged_by: by.username, note },
        });
      });
      const alert = await alerts.byId(id);
      if (!alert) throw missing('alert', id);
      return alert;
    },
  };
}
export type AlertService = ReturnType<typeof createAlertService>;
