import type {
  DeviceEvent,
  DevicePumpStatus,
  DeviceShock,
  DeviceTransaction,
} from '@forecourt/contract/device';
import { changeOf, type DeviceTerminal, type TelemetryWrite } from '../repositories/device-repository.ts';
import type { Repositories } from '../repositories/index.ts';
import type { AlertRules } from './alert-rules.ts';
import { invalid } from './domain-errors.ts';

/**
 * What a terminal reports through the device API: each request is one unit of work, all of its items or none, with
 * one change per kind and terminal whatever the batch (a pump status, one per pump it settled, naming the terminal
 * that carries the pump's commands). Each answers how many items it stored. Telemetry arrives here in group
 * commits of several terminals' requests (telemetry-writes.ts).
 */
export function createDeviceWriteService(
  repos: Pick<Repositories, 'devices' | 'pumps' | 'work'>,
  rules: Pick<AlertRules, 'transactions'>,
) {
  const { devices, pumps, work } = repos;
  return {
    /**
     * Telemetry of several terminals in one unit of work: a 'telemetry' change per terminal that got readings, and
     * a 'fleet' one per terminal whose software version changed (the admin lists show it). A batch whose points
     * carry no software version (nearly all) is one statement, rows and changes together, one round trip; one
     * with versions reads back which changed first, so it is a transaction of a few statements.
     */
    async telemetry(writes: readonly TelemetryWrite[]): Promise<void> {
      if (!writes.length) return;
      if (!writes.some((w) => w.points.some((p) => p.software_version !== undefined))) {
        const { rows, readings } = devices.telemetryRows(writes);
        await work.statement(
          rows,
          readings.map((t) => changeOf('telemetry', t)),
        );
        return;
      }
      await work.run(async (tx) => {
        const stored = await devices.storeTelemetry(tx, writes);
        const changes = [
          ...stored.readings.map((t) => changeOf('telemetry', t)),
          ...stored.versions.map((t) => changeOf('fleet', t)),
        ];
        if (changes.length) await tx.changed(changes);
      });
    },

    /** Events become alerts (or clear them); an 'alert' change only when one was raised or cleared. */
    async events(t: DeviceTerminal, items: readonly DeviceEvent[], now: Date): Promise<number> {
      await work.run(async (tx) => {
        const { raised, cleared } = await devices.insertEvents(tx, t, items, now);
        if (raised + cleared > 0) await tx.changed(changeOf('alert', t));
      });
      return items.length;
    },

    async shocks(t: DeviceTerminal, items: readonly DeviceShock[], now: Date): Promise<number> {
      return work.run(async (tx) => {
        const stored = await devices.insertShocks(tx, t, items, now);
        await tx.changed(changeOf('shock', t));
        return stored;
      });
    },

    /** Transactions, then the sales roll-up of the alert rules (a sale clears `no_sales` alerts). */
    async transactions(t: DeviceTerminal, items: readonly DeviceTransaction[], now: Date): Promise<number> {
      const stored = await work.run(async (tx) => {
        const n = await devices.insertTransactions(tx, t, items);
        await tx.changed(changeOf('transaction', t));
        return n;
      });
      await rules.transactions(t, items, now);
      return stored;
    },

    /**
     * Pump status reports of pumps of the terminal's site; an unknown pump number is invalid, naming the item
     * (`[i].pump_no` in a batch) — at most 20 of them — and nothing is stored.
     */
    async pumpStatuses(
      t: DeviceTerminal,
      items: readonly DevicePumpStatus[],
      now: Date,
      batch: boolean,
    ): Promise<number> {
      const known = await pumps.bySite(t.siteId);
      const unknown = items.flatMap((e, i) =>
        known.has(e.pump_no)
          ? []
          : [`${batch ? `[${i}].` : ''}pump_no: no pump ${e.pump_no} at this terminal's site`],
      );
      if (unknown.length) throw invalid(...unknown.slice(0, 20));
      const entries = items.map((e) => ({ ...e, pumpId: known.get(e.pump_no)! }));
      await work.run(async (tx) => {
        const settled = await devices.insertPumpStatuses(tx, t, entries, now);
        await tx.changed(
          settled.map((p) => ({
            kind: 'pump',
            agentId: t.agentId,
            companyId: t.companyId,
            siteId: p.siteId,
            terminalId: p.terminalId,
            pumpId: p.id,
          })),
        );
      });
      return entries.length;
    },
  };
}
export type DeviceWriteService = ReturnType<typeof createDeviceWriteService>;
