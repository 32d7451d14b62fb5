import type {
  DeviceEvent,
  DevicePumpStatus,
  DeviceShock,
  DeviceTransaction,
  TelemetryPoint,
} from '@forecourt/contract/device';
import { severityOf } from '@forecourt/contract/events';
import type { Database } from '../db/client.ts';
import type { terminals } from '../db/schema/org.ts';
import { raiseAlertsSql } from './alert-sql.ts';
import type { ChangeInput, ChangeKind } from './change-repository.ts';
import { type SettledPump, settlePumps } from './pump-repository.ts';
import type { Row } from './rows.ts';
import type { Tx, WriteStatement } from './unit-of-work.ts';

/** The terminal a device token belongs to, with the scope columns copied onto what it reports. */
export interface DeviceTerminal {
  id: number;
  siteId: number;
  companyId: number;
  agentId: number;
  terminalNo: string;
  siteTitle: string;
  connectivity: string;
}

const atOf = (at: string | undefined, now: Date) => (at ? new Date(at) : now);

/** The change a report of the terminal makes (the live feed): one per kind and terminal, whatever the batch. */
export const changeOf = (kind: ChangeKind, t: DeviceTerminal): ChangeInput => ({
  kind,
  agentId: t.agentId,
  companyId: t.companyId,
  siteId: t.siteId,
  terminalId: t.id,
});

const TELEMETRY_FIELDS = [
  'battery_life',
  'flash_left',
  'temperature_main_board',
  'temperature_inside_cabinet',
  'humidity_inside_cabinet',
  'lat',
  'lng',
] as const;
type TelemetryField = (typeof TELEMETRY_FIELDS)[number];

/** What a telemetry batch stored: the terminals that got readings, and those whose software version changed. */
export interface StoredTelemetry {
  readings: DeviceTerminal[];
  versions: DeviceTerminal[];
}

/**
 * A telemetry batch as one statement's CTEs (`rows`), the terminals it gives readings (`readings`), and the software
 * versions its points carry (`versions`, written by `storeTelemetry` only: whether one changed is read back).
 */
export interface TelemetryRows {
  rows: WriteStatement;
  readings: DeviceTerminal[];
  versions: { id: number[]; value: string[] };
  /** The batch's terminals by id. */
  terminals: Map<number, DeviceTerminal>;
}

/** One device's telemetry request: its points, dated `now` where they carry no `at`. */
export interface TelemetryWrite {
  terminal: DeviceTerminal;
  points: readonly TelemetryPoint[];
  now: Date;
}

/**
 * Device tokens and everything a device reports. Each write is one `insert ... select from unnest(...)` per table
 * (one statement whatever the batch size) inside one transaction, so a 202 means every row is stored.
 */
export function createDeviceRepository(database: Database) {
  /**
   * Several telemetry writes (group commit, docs/decisions/0023-device-write-batching.md) as the CTEs of one
   * statement: every point as a row, each terminal's latest readings, the hours to roll up again. Every write names
   * a different terminal; rows are updated in terminal order. Writes nothing itself.
   */
  function telemetryRows(writes: readonly TelemetryWrite[]): TelemetryRows {
    const rows = { terminal: [] as number[], site: [] as number[], at: [] as Date[] };
    const cols = Object.fromEntries(TELEMETRY_FIELDS.map((f) => [f, [] as (number | null)[]])) as Record<
      TelemetryField,
      (number | null)[]
    >;
    const late = { terminal: [] as number[], hour: [] as Date[] };
    const terminals = { id: [] as number[], maxAt: [] as Date[] };
    const latestCols = Object.fromEntries(
      TELEMETRY_FIELDS.flatMap((f) => [
        [f, [] as (number | null)[]],
        [`${f}_at`, [] as (Date | null)[]],
      ]),
    ) as Record<string, (number | Date | null)[]>;
    const versions = { id: [] as number[], value: [] as string[] };
    const withReadings: TelemetryWrite[] = [];
    const seen = new Set<number>();
    // In terminal order: two batches lock the terminals they update in the same order.
    const ordered = [...writes].sort((a, b) => a.terminal.id - b.terminal.id);
    for (const { terminal: t, points, now } of ordered) {
      if (seen.has(t.id)) throw new Error(`terminal ${t.id} twice in one telemetry batch`);
      seen.add(t.id);
      const latest = new Map<TelemetryField, { value: number; at: Date }>();
      let maxAt = new Date(0);
      // Hours before the current one may be rolled up already: they are marked to be rolled up again.
      const thisHour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
      const lateHours = new Set<number>();
      // A point may carry only `software_version`: it sets the terminal's version (the newest point's wins) and
      // stores no reading.
      let version: { value: string; at: Date } | null = null;
      let readings = 0;
      for (const p of points) {
        const at = atOf(p.at, now);
        if (p.software_version !== undefined && (!version || at >= version.at)) {
          version = { value: p.software_version, at };
        }
        if (!TELEMETRY_FIELDS.some((f) => p[f] !== undefined)) continue;
        readings++;
        rows.terminal.push(t.id);
        rows.site.push(t.siteId);
        rows.at.push(at);
        if (at > maxAt) maxAt = at;
        if (at.getTime() < thisHour) lateHours.add(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
        for (const f of TELEMETRY_FIELDS) {
          const v = p[f];
          cols[f].push(v ?? null);
          if (v !== undefined) {
            const prev = latest.get(f);
            if (!prev || at >= prev.at) latest.set(f, { value: v, at });
          }
        }
      }
      if (version) {
        versions.id.push(t.id);
        versions.value.push(version.value);
      }
      if (!readings) continue;
      withReadings.push({ terminal: t, points, now });
      for (const h of lateHours) {
        late.terminal.push(t.id);
        late.hour.push(new Date(h));
      }
      terminals.id.push(t.id);
      terminals.maxAt.push(maxAt);
      for (const f of TELEMETRY_FIELDS) {
        latestCols[f].push(latest.get(f)?.value ?? null);
        latestCols[`${f}_at`].push(latest.get(f)?.at ?? null);
      }
    }
    const set = TELEMETRY_FIELDS.map(
      (f) =>
        `${f} = case when u.${f} is not null and u.${f}_at >= coalesce(t.telemetry_at, '-infinity') then u.${f} else t.${f} end`,
    );
    const latestParams = TELEMETRY_FIELDS.flatMap((f) => [latestCols[f], latestCols[`${f}_at`]]);
    const latestArgs = TELEMETRY_FIELDS.flatMap((_, i) => [
      `$${15 + i * 2}::float8[]`,
      `$${16 + i * 2}::timestamptz[]`,
    ]);
    const statement: WriteStatement = {
      ctes: [
        [
          'telemetry_rows',
          `insert into telemetry (terminal_id, site_id, at, battery_life, flash_left, temperature_main_board,
                                  temperature_inside_cabinet, humidity_inside_cabinet, lat, lng)
           select * from unnest($1::int[], $2::int[], $3::timestamptz[], $4::float8[], $5::float8[],
                                $6::float8[], $7::float8[], $8::float8[], $9::float8[], $10::float8[])`,
        ],
        [
          'telemetry_late',
          `insert into telemetry_rollup_pending (terminal_id, hour)
           select * from unnest($11::int[], $12::timestamptz[]) on conflict do nothing`,
        ],
        [
          'telemetry_latest',
          `update terminals t set ${set.join(', ')},
                  telemetry_at = greatest(coalesce(t.telemetry_at, '-infinity'::timestamptz), u.max_at)
             from unnest($13::int[], $14::timestamptz[], ${latestArgs.join(', ')})
                  as u(id, max_at, ${TELEMETRY_FIELDS.flatMap((f) => [f, `${f}_at`]).join(', ')})
            where t.id = u.id`,
        ],
      ],
      params: [
        rows.terminal,
        rows.site,
        rows.at,
        ...TELEMETRY_FIELDS.map((f) => cols[f]),
        late.terminal,
        late.hour,
        terminals.id,
        terminals.maxAt,
        ...latestParams,
      ],
    };
    return {
      rows: statement,
      readings: withReadings.map((w) => w.terminal),
      versions,
      terminals: new Map(ordered.map((w) => [w.terminal.id, w.terminal])),
    };
  }

  /**
   * Several telemetry writes in one unit of work of several statements: the rows (`telemetryRows`), then the
   * software versions the points carry, read back to tell which changed. Answers the terminals that got readings
   * and those whose software version changed. A batch without versions goes as one statement instead
   * (services/device-writes.ts).
   */
  async function storeTelemetry(tx: Tx, writes: readonly TelemetryWrite[]): Promise<StoredTelemetry> {
    const stored: StoredTelemetry = { readings: [], versions: [] };
    if (!writes.length) return stored;
    const { rows, readings, versions, terminals } = telemetryRows(writes);
    await tx(
      `with ${rows.ctes.map(([name, sql]) => `${name} as (${sql})`).join(',\n')} select 1`,
      rows.params,
    );
    stored.readings = readings;
    if (versions.id.length) {
      const moved = await tx<{ id: number }>(
        `update terminals t set software_version = u.v
             from unnest($1::int[], $2::text[]) as u(id, v)
            where t.id = u.id and t.software_version is distinct from u.v
            returning t.id`,
        [versions.id, versions.value],
      );
      for (const { id } of moved) {
        const t = terminals.get(Number(id));
        if (t) stored.versions.push(t);
      }
    }
    return stored;
  }

  return {
    async terminalByTokenHash(hash: string): Promise<DeviceTerminal | null> {
      const rows = await database.query<
        Row<
          typeof terminals,
          'id' | 'site_id' | 'company_id' | 'agent_id' | 'terminal_no' | 'connectivity'
        > & {
          site_title: string;
        }
      >(
        `select t.id, t.site_id, t.company_id, t.agent_id, t.terminal_no, s.title as site_title, t.connectivity
           from device_tokens d join terminals t on t.id = d.terminal_id join sites s on s.id = t.site_id
          where d.token_hash = $1 and t.decommissioned_at is null`,
        [hash],
      );
      const r = rows[0];
      return r
        ? {
            id: r.id,
            siteId: r.site_id,
            companyId: r.company_id,
            agentId: r.agent_id,
            terminalNo: r.terminal_no,
            siteTitle: r.site_title,
            connectivity: r.connectivity,
          }
        : null;
    },

    /** Stores (or replaces: rotation) a terminal's token hash; answers where the terminal sits (null: unknown). */
    async setTokenHash(
      tx: Tx,
      terminalId: number,
      hash: string,
      userId: number,
    ): Promise<{ agentId: number; companyId: number; siteId: number } | null> {
      const rows = await tx<{ agent_id: number; company_id: number; site_id: number }>(
        `with stored as (
           insert into device_tokens (terminal_id, token_hash, created_by, created_at) values ($1, $2, $3, now())
           on conflict (terminal_id) do update
             set token_hash = excluded.token_hash, created_by = excluded.created_by, created_at = excluded.created_at
           returning terminal_id
         )
         select t.agent_id, t.company_id, t.site_id from stored join terminals t on t.id = stored.terminal_id`,
        [terminalId, hash, userId],
      );
      const r = rows[0];
      return r ? { agentId: r.agent_id, companyId: r.company_id, siteId: r.site_id } : null;
    },

    /** Removes a terminal's token (decommissioning): no device may speak for it any more. Answers whether it had one. */
    async deleteToken(tx: Tx, terminalId: number): Promise<boolean> {
      const rows = await tx('delete from device_tokens where terminal_id = $1 returning terminal_id', [
        terminalId,
      ]);
      return rows.length > 0;
    },

    storeTelemetry,
    telemetryRows,

    /**
     * Events become alerts, with the terminal's agent, company and site and the catalogue's severity copied on,
     * and their mails queued. An event with `clear: true` clears the terminal's active alerts of its type instead.
     * A batch is applied in order, in one transaction: [raise 2, clear 2] leaves nothing active, [clear 2,
     * raise 2] leaves the new one. Answers how many alerts were raised and cleared.
     */
    async insertEvents(
      tx: Tx,
      t: DeviceTerminal,
      events: readonly DeviceEvent[],
      now: Date,
    ): Promise<{ raised: number; cleared: number }> {
      let raised = 0;
      let cleared = 0;
      let run: DeviceEvent[] = [];
      const raise = async () => {
        if (!run.length) return;
        const rows = await tx(
          raiseAlertsSql(
            `insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at, severity)
             select $1::int, $2::int, $3::int, $4::int, u.*
               from unnest($5::int2[], $6::text[], $7::timestamptz[], $8::text[]) as u`,
          ),
          [
            t.id,
            t.siteId,
            t.companyId,
            t.agentId,
            run.map((e) => e.event_type),
            run.map((e) => e.text ?? ''),
            run.map((e) => atOf(e.at, now)),
            run.map((e) => severityOf(e.event_type)),
          ],
        );
        raised += rows.length;
        run = [];
      };
      for (const e of events) {
        if (!e.clear) {
          run.push(e);
          continue;
        }
        await raise();
        const rows = await tx(
          `update alerts set state = 'cleared', cleared_at = $3
            where terminal_id = $1 and event_type = $2 and state = 'active'
            returning id`,
          [t.id, e.event_type, atOf(e.at, now)],
        );
        cleared += rows.length;
      }
      await raise();
      return { raised, cleared };
    },

    async insertShocks(
      tx: Tx,
      t: DeviceTerminal,
      shocks: readonly DeviceShock[],
      now: Date,
    ): Promise<number> {
      await tx(
        `insert into shocks (terminal_id, site_id, company_id, agent_id, reading, created_at)
         select $1::int, $2::int, $3::int, $4::int, u.* from unnest($5::float8[], $6::timestamptz[]) as u`,
        [
          t.id,
          t.siteId,
          t.companyId,
          t.agentId,
          shocks.map((s) => s.reading),
          shocks.map((s) => atOf(s.at, now)),
        ],
      );
      return shocks.length;
    },

    async insertTransactions(tx: Tx, t: DeviceTerminal, txs: readonly DeviceTransaction[]): Promise<number> {
      await tx(
        `insert into transactions (terminal_id, site_id, at, volume_l, amount)
         select $1::int, $2::int, u.* from unnest($3::timestamptz[], $4::numeric[], $5::numeric[]) as u`,
        [
          t.id,
          t.siteId,
          txs.map((x) => new Date(x.at)),
          txs.map((x) => x.volume_l),
          txs.map((x) => x.amount),
        ],
      );
      return txs.length;
    },

    /**
     * Status entries, and each reported pump's last_synapse_status (the device's word on its state). With no
     * command of its own pending, the requested status follows too (someone switched it at the forecourt); with
     * one pending, the request stands until that command ends. Answers the pumps it settled.
     */
    async insertPumpStatuses(
      tx: Tx,
      t: DeviceTerminal,
      entries: ReadonlyArray<DevicePumpStatus & { pumpId: number }>,
      now: Date,
    ): Promise<SettledPump[]> {
      const latest = new Map<number, { status: number; at: Date }>();
      const ats = entries.map((e) => atOf(e.at, now));
      entries.forEach((e, i) => {
        const prev = latest.get(e.pumpId);
        if (!prev || ats[i] >= prev.at) latest.set(e.pumpId, { status: e.status, at: ats[i] });
      });
      await tx(
        `insert into pump_status_entries (pump_id, site_id, terminal_id, reported_status, code, text, created_at)
         select u.pump_id, $1::int, $2::int, u.status, u.code, u.text, u.at
           from unnest($3::int[], $4::int2[], $5::int[], $6::text[], $7::timestamptz[])
                as u(pump_id, status, code, text, at)`,
        [
          t.siteId,
          t.id,
          entries.map((e) => e.pumpId),
          entries.map((e) => e.status),
          entries.map((e) => e.code),
          entries.map((e) => e.text),
          ats,
        ],
      );
      return settlePumps(
        tx,
        [...latest].map(([id, v]) => ({ id, confirmed: v.status })),
      );
    },
  };
}
export type DeviceRepository = ReturnType<typeof createDeviceRepository>;
