import type {
  Connectivity,
  MapSite,
  SiteMapTerminal,
  SiteStatus,
  SiteTerminal,
} from '@forecourt/contract/fleet';
import type { Pump, PumpStatusLog } from '@forecourt/contract/pumps';
import { MARKER_COLOR_OF_CONNECTIVITY, markerColor, UNKNOWN_MARKER_COLOR } from '@forecourt/contract/rules';
import type { Battery, Environment, FlashDrive, Shock } from '@forecourt/contract/terminals';
import type { Database } from '../db/client.ts';
import { type PumpDbRow, pumpSelect, toPump, toPumpRow } from './pump-repository.ts';
import { iso, num, Params, type ReadScope, scopeColumn, siteColumn } from './read-scope.ts';

/** The contract's marker colour rule as SQL over `t.connectivity` (the values are the contract's own words). */
const markerColorSql = `case t.connectivity ${Object.entries(MARKER_COLOR_OF_CONNECTIVITY)
  .map(([connectivity, color]) => `when '${connectivity}' then '${color}'`)
  .join(' ')} else '${UNKNOWN_MARKER_COLOR}' end`;

export interface ZoneRow {
  title: string;
  area: string;
  tz_title: string;
  iana: string;
}

interface ReadingRow {
  id: number;
  terminal_no: string;
  site_title: string;
  site_number: string;
  telemetry_at: Date | string | null;
  battery_life: number | null;
  flash_left: number | null;
  temperature_main_board: number | null;
  temperature_inside_cabinet: number | null;
  humidity_inside_cabinet: number | null;
}

/** The polled dashboard reads: one statement each, so a shared snapshot costs one query. */
export function createFleetReadRepository(database: Database) {
  const q = <T>(sql: string, params: unknown[]) => database.query<T>(sql, params);

  /** Latest readings per terminal of a site, from the terminal row (kept current by the device API). */
  const readings = (siteId: number, column: string, limit: number) =>
    q<ReadingRow>(
      `select t.id, t.terminal_no, s.title as site_title, s.number as site_number, t.telemetry_at,
              t.battery_life, t.flash_left, t.temperature_main_board, t.temperature_inside_cabinet,
              t.humidity_inside_cabinet
         from terminals t join sites s on s.id = t.site_id
        where t.site_id = $1 and ${column} is not null and t.decommissioned_at is null
        order by t.id
        limit $2`,
      [siteId, limit],
    );

  return {
    /** One row per terminal: its current state and when it last changed; offline ones only if asked. */
    async connectivity(scope: ReadScope, opts: { offline: boolean; limit: number }): Promise<Connectivity[]> {
      const rows = await q<{
        site_id: number;
        title: string;
        number: string;
        connectivity: string;
        date: Date | string;
        terminal_id: number;
      }>(
        `select t.site_id, s.title, t.terminal_no as number, t.connectivity, t.connectivity_changed_at as date,
                t.id as terminal_id
           from terminals t join sites s on s.id = t.site_id
          where ${scopeColumn(scope, 't')} = $1 and t.decommissioned_at is null
                ${opts.offline ? `and t.connectivity <> 'on'` : ''}
          order by t.connectivity_changed_at desc, t.id desc
          limit $2`,
        [scope.id, opts.limit],
      );
      return rows.map((r) => ({
        site_id: r.site_id,
        title: r.title,
        number: r.number,
        status: r.connectivity === 'on' ? 'on' : 'off',
        date: iso(r.date)!,
        terminal_id: r.terminal_id,
      }));
    },

    /**
     * Sites with their terminals' positions, coloured by connectivity (road map), built row by row: the
     * reference that `mapSitesJson` (what the routes serve) is tested against.
     */
    async mapSites(scope: ReadScope): Promise<MapSite[]> {
      const rows = await q<{
        id: number;
        site_title: string;
        site_no: string;
        terminals: Array<{ terminal_id: string; lat: number; lng: number; connectivity: string }> | string;
      }>(
        `select s.id, s.title as site_title, s.number as site_no,
                coalesce(json_agg(json_build_object('terminal_id', t.terminal_no,
                                                    'lat', coalesce(t.lat, s.lat), 'lng', coalesce(t.lng, s.lng),
                                                    'connectivity', t.connectivity) order by t.id)
                           filter (where t.id is not null and coalesce(t.lat, s.lat) is not null
                                   and coalesce(t.lng, s.lng) is not null), '[]'::json) as terminals
           from sites s left join terminals t on t.site_id = s.id and t.decommissioned_at is null
          where ${siteColumn(scope)} = $1 and s.decommissioned_at is null
          group by s.id
          order by s.id`,
        [scope.id],
      );
      return rows.map((r) => {
        const terminals = typeof r.terminals === 'string' ? JSON.parse(r.terminals) : r.terminals;
        return {
          id: r.id,
          site_title: r.site_title,
          site_no: r.site_no,
          terminals: (
            terminals as Array<{ terminal_id: string; lat: number; lng: number; connectivity: string }>
          ).map((t) => ({
            terminal_id: t.terminal_id,
            lat: Number(t.lat),
            lng: Number(t.lng),
            marker_color: markerColor(t.connectivity),
          })),
        };
      });
    },

    /**
     * The same answer as `mapSites`, as JSON text built by the database: the agent's map of 20,000 terminals
     * is 2 MB, which would otherwise be parsed, checked and serialised on the event loop at every rebuild.
     */
    async mapSitesJson(scope: ReadScope): Promise<string> {
      // Concatenated rather than json_build_object, whose text has a space around every ':' and ','
      // (14 % more bytes); to_json() escapes the strings, float8 text is the shortest exact number.
      const [row] = await q<{ body: string }>(
        `select '[' || coalesce(string_agg(m.site, ',' order by m.id), '') || ']' as body
           from (select s.id,
                        '{"id":' || s.id || ',"site_title":' || to_json(s.title)::text
                        || ',"site_no":' || to_json(s.number)::text || ',"terminals":['
                        || coalesce(string_agg(
                             '{"terminal_id":' || to_json(t.terminal_no)::text
                             || ',"lat":' || coalesce(t.lat, s.lat)::float8::text
                             || ',"lng":' || coalesce(t.lng, s.lng)::float8::text
                             || ',"marker_color":"' || ${markerColorSql} || '"}',
                             ',' order by t.id)
                           filter (where t.id is not null and coalesce(t.lat, s.lat) is not null
                                   and coalesce(t.lng, s.lng) is not null), '')
                        || ']}' as site
                   from sites s left join terminals t on t.site_id = s.id and t.decommissioned_at is null
                  where ${siteColumn(scope)} = $1 and s.decommissioned_at is null
                  group by s.id) m`,
        [scope.id],
      );
      return row?.body ?? '[]';
    },

    /** Sites with status = how many of their terminals are online (0: none online). */
    async sites(scope: ReadScope): Promise<SiteStatus[]> {
      const rows = await q<{ id: number; title: string; number: string; company_id: number; status: number }>(
        `select s.id, s.title, s.number, s.company_id,
                (select count(*) from terminals t
                  where t.site_id = s.id and t.connectivity = 'on' and t.decommissioned_at is null)::int as status
           from sites s
          where ${siteColumn(scope)} = $1 and s.decommissioned_at is null
          order by s.title, s.id`,
        [scope.id],
      );
      return rows.map((r) => ({ ...r, status: num(r.status) }));
    },

    async timeZones(scope: { kind: 'agent' | 'company'; id: number }): Promise<ZoneRow[]> {
      return q<ZoneRow>(
        `select title, area, tz_title, iana from time_zones
          where ${scope.kind === 'agent' ? 'agent_id' : 'company_id'} = $1
          order by position, id`,
        [scope.id],
      );
    },

    async siteMapTerminals(siteId: number): Promise<SiteMapTerminal[]> {
      const rows = await q<{
        id: number;
        terminal_no: string;
        lat: number;
        lng: number;
        connectivity: string;
      }>(
        `select t.id, t.terminal_no, coalesce(t.lat, s.lat) as lat, coalesce(t.lng, s.lng) as lng, t.connectivity
           from terminals t join sites s on s.id = t.site_id
          where t.site_id = $1 and coalesce(t.lat, s.lat) is not null and coalesce(t.lng, s.lng) is not null
            and t.decommissioned_at is null
          order by t.id`,
        [siteId],
      );
      return rows.map((r) => ({
        id: r.id,
        terminal_id: r.terminal_no,
        lat: Number(r.lat),
        lng: Number(r.lng),
        connectivity: r.connectivity,
      }));
    },

    /** Every terminal of the site, placed where it stands (or at its site when it has no position of its own). */
    async siteTerminals(siteId: number): Promise<SiteTerminal[]> {
      const rows = await q<{
        id: number;
        terminal_no: string;
        site_id: number;
        lat: number | null;
        lng: number | null;
        connectivity: string;
      }>(
        `select t.id, t.terminal_no, t.site_id, coalesce(t.lat, s.lat) as lat, coalesce(t.lng, s.lng) as lng,
                t.connectivity
           from terminals t join sites s on s.id = t.site_id
          where t.site_id = $1 and t.decommissioned_at is null
          order by t.id`,
        [siteId],
      );
      return rows.map((r) => ({
        id: r.id,
        terminal_id: r.terminal_no,
        site_id: r.site_id,
        lat: r.lat === null ? null : Number(r.lat),
        lng: r.lng === null ? null : Number(r.lng),
        connectivity: r.connectivity === 'on' ? 'on' : 'off',
      }));
    },

    async sitePumps(siteId: number): Promise<Pump[]> {
      const rows = await q<PumpDbRow>(
        `${pumpSelect} where p.site_id = $1 and p.decommissioned_at is null order by p.pump_no`,
        [siteId],
      );
      return rows.map((r) => toPump(toPumpRow(r)));
    },

    /** Every pump of a site keyed by its number, each with its newest `perPump` status entries. */
    async pumpStatus(siteId: number, perPump: number): Promise<PumpStatusLog> {
      const rows = await q<{
        pump_no: number;
        created_at: Date | string | null;
        text: string | null;
        code: number | null;
      }>(
        `select p.pump_no, e.created_at, e.text, e.code
           from pumps p
           left join lateral (
             select x.created_at, x.text, x.code, x.id from pump_status_entries x
              where x.pump_id = p.id order by x.id desc limit $2
           ) e on true
          where p.site_id = $1 and p.decommissioned_at is null
          order by p.pump_no, e.id desc`,
        [siteId, perPump],
      );
      const out: PumpStatusLog = {};
      for (const r of rows) {
        const key = String(r.pump_no);
        out[key] ??= [];
        const list = out[key];
        if (r.created_at !== null)
          list.push({ created_at: iso(r.created_at)!, text: r.text ?? '', status: Number(r.code) });
      }
      return out;
    },

    async battery(siteId: number, limit: number): Promise<Battery[]> {
      return (await readings(siteId, 't.battery_life', limit)).map((r) => ({
        life: Number(r.battery_life),
        terminal: { terminal_id: r.terminal_no, id: r.id },
        customer: r.site_title,
        site_number: r.site_number,
        ...(r.telemetry_at ? { created_at: iso(r.telemetry_at)! } : {}),
      }));
    },

    async flashDrive(siteId: number, limit: number): Promise<FlashDrive[]> {
      return (await readings(siteId, 't.flash_left', limit)).map((r) => ({
        left: Number(r.flash_left),
        terminal: { terminal_id: r.terminal_no, id: r.id },
        customer: r.site_title,
        site_number: r.site_number,
        ...(r.telemetry_at ? { created_at: iso(r.telemetry_at)! } : {}),
      }));
    },

    async environment(siteId: number, limit: number): Promise<Environment[]> {
      const rows = await readings(
        siteId,
        'coalesce(t.temperature_main_board, t.temperature_inside_cabinet, t.humidity_inside_cabinet)',
        limit,
      );
      return rows.map((r) => ({
        temperature_main_board: r.temperature_main_board,
        temperature_inside_cabinet: r.temperature_inside_cabinet,
        humidity_inside_cabinet: r.humidity_inside_cabinet,
        terminal: { terminal_id: r.terminal_no, id: r.id },
        ...(r.telemetry_at ? { created_at: iso(r.telemetry_at)! } : {}),
      }));
    },

    /** Newest shock readings of a site. */
    async siteShocks(siteId: number, limit: number): Promise<Shock[]> {
      const rows = await q<{
        id: number | string;
        reading: number;
        created_at: Date | string;
        site_id: number;
        company_id: number;
        card_acceptor_name: string;
        terminal_no: string;
        terminal_id: number;
      }>(
        `select x.id, x.reading, x.created_at, x.site_id, x.company_id, t.card_acceptor_name, t.terminal_no,
                x.terminal_id
           from shocks x join terminals t on t.id = x.terminal_id
          where x.site_id = $1
          order by x.id desc
          limit $2`,
        [siteId, limit],
      );
      return rows.map((r) => ({
        id: num(r.id),
        reading: Number(r.reading),
        created_at: iso(r.created_at)!,
        terminal: {
          site: r.site_id,
          card_acceptor_name: r.card_acceptor_name,
          terminal_id: r.terminal_no,
          id: r.terminal_id,
        },
        company_id: r.company_id,
      }));
    },

    /**
     * Transactions of a site in 12 five-minute buckets (the last hour) and 24 hourly buckets (the last day),
     * oldest first. Each transaction counts in one series: zero amount first, then under one litre, else normal.
     */
    async transactionActivity(siteId: number, now: Date) {
      const FIVE = 300_000;
      const HOUR = 3_600_000;
      const hourStart = Math.floor(now.getTime() / FIVE) * FIVE - 11 * FIVE;
      const dayStart = Math.floor(now.getTime() / HOUR) * HOUR - 23 * HOUR;
      const p = new Params();
      const site = p.add(siteId);
      const h0 = p.add(new Date(hourStart).toISOString());
      const d0 = p.add(new Date(dayStart).toISOString());
      const rows = await q<{ series: string; bucket: number; normal: number; zero: number; lt1: number }>(
        `select series, bucket,
                count(*) filter (where amount <> 0 and volume_l >= 1)::int as normal,
                count(*) filter (where amount = 0)::int as zero,
                count(*) filter (where amount <> 0 and volume_l < 1)::int as lt1
           from (
             select 'h' as series, floor(extract(epoch from (at - ${h0}::timestamptz)) / 300)::int as bucket, amount, volume_l
               from transactions where site_id = ${site} and at >= ${h0}::timestamptz
                and at < ${h0}::timestamptz + interval '1 hour'
             union all
             select 'd', floor(extract(epoch from (at - ${d0}::timestamptz)) / 3600)::int, amount, volume_l
               from transactions where site_id = ${site} and at >= ${d0}::timestamptz
                and at < ${d0}::timestamptz + interval '24 hours'
           ) x
          group by series, bucket`,
        p.values,
      );
      const series = (n: number) => ({
        normal: Array(n).fill(0),
        zero: Array(n).fill(0),
        lt1: Array(n).fill(0),
      });
      const hour = series(12);
      const day = series(24);
      for (const r of rows) {
        const target = r.series === 'h' ? hour : day;
        const b = Number(r.bucket);
        if (b < 0 || b >= target.normal.length) continue;
        target.normal[b] = num(r.normal);
        target.zero[b] = num(r.zero);
        target.lt1[b] = num(r.lt1);
      }
      return {
        transaction_in_1_hour: hour.normal,
        transaction_0_in_1_hour: hour.zero,
        transaction_lt1_in_1_hour: hour.lt1,
        buckets_1_hour: Array.from({ length: 12 }, (_, i) => new Date(hourStart + i * FIVE).toISOString()),
        transaction_in_24_hours: day.normal,
        transaction_0_in_24_hours: day.zero,
        transaction_lt1_in_24_hours: day.lt1,
        buckets_24_hours: Array.from({ length: 24 }, (_, i) => new Date(dayStart + i * HOUR).toISOString()),
      };
    },
  };
}
export type FleetReadRepository = ReturnType<typeof createFleetReadRepository>;
