import {
  type AlertsReportRow,
  type AvailabilityRow,
  type AvailabilityTotal,
  OFFLINE_EVENT_TYPE,
  type ReportGroup,
} from '@forecourt/contract/reports';
import type { Database } from '../db/client.ts';
import { nullableNum, num, type ReadScope, scopeColumn } from './read-scope.ts';

/** Whole seconds: every instant of a report is truncated to the second, so every sum is exact. */
const sec = (expr: string) => `date_trunc('second', ${expr})`;
const epoch = (expr: string) => `extract(epoch from ${expr})`;

/**
 * The union of the intervals `(tid, s, e)` of `src` per terminal (gaps and islands): an interval starts a new island
 * when it begins after every earlier one (in order of start) has ended.
 */
const unionSql = (src: string) => `
  select tid, min(s) as s, max(e) as e from (
    select tid, s, e, sum(case when prev_e is null or s > prev_e then 1 else 0 end)
             over (partition by tid order by s, e rows unbounded preceding) as island
      from (select tid, s, e, max(e) over (partition by tid order by s, e
                                           rows between unbounded preceding and 1 preceding) as prev_e
              from (${src}) raw where e > s) ordered) islands
   group by tid, island`;

/**
 * A window reaches the terminals of its scope: one equality join per scope kind (hashed), not one condition per
 * window and terminal — an agent's report pairs thousands of terminals with hundreds of windows.
 */
const WINDOW_KINDS = [
  ['agent', 'agent_id'],
  ['company', 'company_id'],
  ['site', 'site_id'],
  ['terminal', 'id'],
] as const;

interface DbMeasures {
  period_s: number | string;
  excluded_s: number | string;
  downtime_s: number | string;
  availability: number | string;
  incidents: number | string;
  mtta_s: number | string | null;
  mttr_s: number | string | null;
}

interface DbAvailability extends DbMeasures {
  is_total: boolean;
  id: number | null;
  name: string | null;
  site_id: number | null;
}

const measuresOf = (r: DbMeasures) => ({
  period_s: num(r.period_s),
  excluded_s: num(r.excluded_s),
  downtime_s: num(r.downtime_s),
  availability: num(r.availability),
  incidents: num(r.incidents),
  mtta_s: nullableNum(r.mtta_s),
  mttr_s: nullableNum(r.mttr_s),
});

/**
 * Availability and alert reports (docs/reports.md), each one SQL statement over the alert log: the terminals of the
 * scope with their period (their life inside the report's), the union of their offline alerts' intervals, the union
 * of the time their maintenance windows cover (weekly ones in each site's own time zone, as `maintenance_covers`
 * reads them), and what is left of the one outside the other.
 */
export function createReportReadModel(database: Database) {
  return {
    async availability(
      scope: ReadScope,
      period: { from: Date; to: Date },
      groupBy: ReportGroup,
      now: Date,
    ): Promise<{ rows: AvailabilityRow[]; total: AvailabilityTotal }> {
      const keys =
        groupBy === 'site'
          ? { cols: 'p.site_id, p.site_title', id: 'p.site_id', name: 'p.site_title' }
          : { cols: 'p.id, p.terminal_no, p.site_id', id: 'p.id', name: 'p.terminal_no' };
      const rows = await database.query<DbAvailability>(
        `with tp as (
           select * from (
             select t.id, t.terminal_no, t.site_id, s.title as site_title, s.timezone as tz, t.tags, t.agent_id,
                    t.company_id,
                    greatest(${sec('$1::timestamptz')}, ${sec('t.created_at')}) as ps,
                    least(${sec('$2::timestamptz')}, ${sec("coalesce(t.decommissioned_at, 'infinity'::timestamptz)")},
                          ${sec('$3::timestamptz')}) as pe
               from terminals t join sites s on s.id = t.site_id
              where ${scopeColumn(scope, 't')} = $4) lives
            where pe > ps
         ),
         oa as (
           select tp.id as tid, tp.ps, tp.pe, ${sec('a.started_at')} as st, ${sec('a.cleared_at')} as cl,
                  ${sec('a.acknowledged_at')} as ack
             from alerts a join tp on tp.id = a.terminal_id
            where ${scopeColumn(scope, 'a')} = $4 and a.event_type = ${OFFLINE_EVENT_TYPE}
              and a.started_at < tp.pe + interval '1 second'
         ),
         off as (${unionSql(`
           select tid, greatest(st, ps) as s, least(coalesce(cl, pe), pe) as e from oa`)}
         ),
         win as (${unionSql(`
           select w.id as tid, greatest(o.s, ${sec('w.starts_at')}, w.ps) as s,
                  least(o.e, ${sec('w.ends_at')}, w.pe) as e
             from (${WINDOW_KINDS.map(
               ([kind, col]) => `
                   select tp.id, tp.ps, tp.pe, tp.tz, w.starts_at, w.ends_at, w.weekdays, w.start_local,
                          w.duration_min
                     from tp join maintenance_windows w on w.scope_kind = '${kind}' and w.scope_id = tp.${col}
                    where w.starts_at < tp.pe and w.ends_at > tp.ps and tp.tags @> w.tags`,
             ).join(' union all ')}) w
            cross join lateral (
              select ${sec('w.starts_at')} as s, ${sec('w.ends_at')} as e where w.weekdays is null
              union all
              select occ.s, occ.s + make_interval(mins => w.duration_min)
                from generate_series(
                       ((greatest(w.starts_at, w.ps) at time zone w.tz)::date - (w.duration_min + 1439) / 1440)::timestamp,
                       (least(w.ends_at, w.pe) at time zone w.tz)::date::timestamp,
                       interval '1 day') as d(day)
               cross join lateral (select ((d.day::date + w.start_local::time) at time zone w.tz) as s) occ
               where w.weekdays is not null and extract(isodow from d.day)::int = any(w.weekdays)) o`)}
         ),
         off_s as (select tid, sum(${epoch('e')} - ${epoch('s')}) as secs from off group by tid),
         win_s as (select tid, sum(${epoch('e')} - ${epoch('s')}) as secs from win group by tid),
         both_s as (
           select o.tid, sum(${epoch('least(o.e, w.e)')} - ${epoch('greatest(o.s, w.s)')}) as secs
             from off o join win w on w.tid = o.tid and w.s < o.e and w.e > o.s
            group by o.tid
         ),
         inc as (
           select tid, count(*) as n, count(ack) as n_ack, sum(${epoch('ack')} - ${epoch('st')}) as ack_s,
                  count(cl) as n_clr, sum(${epoch('cl')} - ${epoch('st')}) as clr_s
             from oa where st >= ps and st < pe
            group by tid
         ),
         per as (
           select tp.id, tp.terminal_no, tp.site_id, tp.site_title,
                  ${epoch('tp.pe')} - ${epoch('tp.ps')} as period_s,
                  coalesce(win_s.secs, 0) as excluded_s,
                  coalesce(off_s.secs, 0) - coalesce(both_s.secs, 0) as downtime_s,
                  coalesce(inc.n, 0) as n, coalesce(inc.n_ack, 0) as n_ack, coalesce(inc.ack_s, 0) as ack_s,
                  coalesce(inc.n_clr, 0) as n_clr, coalesce(inc.clr_s, 0) as clr_s
             from tp left join off_s on off_s.tid = tp.id left join win_s on win_s.tid = tp.id
             left join both_s on both_s.tid = tp.id left join inc on inc.tid = tp.id
         ),
         grouped as (
           select grouping(${keys.id}) = 1 as is_total, ${keys.id} as id, min(${keys.name}) as name,
                  min(p.site_id) as site_id, sum(p.period_s) as period_s, sum(p.excluded_s) as excluded_s,
                  sum(p.downtime_s) as downtime_s, sum(p.n) as incidents, sum(p.n_ack) as n_ack,
                  sum(p.ack_s) as ack_s, sum(p.n_clr) as n_clr, sum(p.clr_s) as clr_s
             from per p
            group by grouping sets ((${keys.cols}), ())
         )
         select is_total, id, name, case when is_total then null else site_id end as site_id,
                coalesce(period_s, 0)::bigint as period_s, coalesce(excluded_s, 0)::bigint as excluded_s,
                coalesce(downtime_s, 0)::bigint as downtime_s,
                case when coalesce(period_s - excluded_s, 0) <= 0 then 1
                     else round((period_s - excluded_s - downtime_s) * 10000 / (period_s - excluded_s)) / 10000
                end::float8 as availability,
                coalesce(incidents, 0)::bigint as incidents,
                case when n_ack > 0 then round(ack_s / n_ack)::bigint end as mtta_s,
                case when n_clr > 0 then round(clr_s / n_clr)::bigint end as mttr_s
           from grouped
          order by is_total, availability, downtime_s desc, name, id`,
        [period.from, period.to, now, scope.id],
      );
      const total = rows.find((r) => r.is_total);
      return {
        rows: rows
          .filter((r) => !r.is_total)
          .map((r) => ({
            id: num(r.id),
            name: r.name ?? '',
            site_id: num(r.site_id),
            ...measuresOf(r),
          })),
        total: {
          id: null,
          name: 'Total',
          site_id: null,
          ...(total
            ? measuresOf(total)
            : measuresOf({
                period_s: 0,
                excluded_s: 0,
                downtime_s: 0,
                availability: 1,
                incidents: 0,
                mtta_s: null,
                mttr_s: null,
              })),
        },
      };
    },

    /**
     * Per event type, the alerts of the scope started in the period: how many (silenced ones included), how many
     * were silenced, acknowledged and cleared by now, and the mean and 90th-percentile seconds to each.
     */
    async alerts(
      scope: ReadScope,
      period: { from: Date; to: Date },
    ): Promise<Array<Omit<AlertsReportRow, 'name' | 'severity'>>> {
      // One pass over the alerts, grouped by type and whole seconds to clearing (few distinct pairs; as intervals,
      // turned into seconds per group rather than per alert): counts and sums add up per type, and the nearest-rank 90th percentile is the first time to clear whose running count
      // reaches ceil(0.9 × cleared) — what percentile_disc(0.9) answers, without sorting every alert.
      // `started_at` is compared with whole seconds, so `sec(started_at) >= sec(from)` is `started_at >= sec(from)`
      // (an index-friendly condition with a true estimate).
      const rows = await database.query<Record<string, number | string | null>>(
        `with gi as (
           select event_type, ${sec('cleared_at')} - ${sec('started_at')} as ttr,
                  count(*) as n, count(*) filter (where silenced) as silenced, count(acknowledged_at) as n_ack,
                  sum(${sec('acknowledged_at')} - ${sec('started_at')}) as ack
             from alerts a
            where ${scopeColumn(scope, 'a')} = $1
              and a.started_at >= ${sec('$2::timestamptz')} and a.started_at < ${sec('$3::timestamptz')}
            group by 1, 2
         ),
         g as (
           select event_type, ${epoch('ttr')}::bigint as ttr, n, silenced, n_ack, ${epoch('ack')} as ack_s from gi
         ),
         cum as (
           select event_type, ttr, sum(n) over (partition by event_type order by ttr rows unbounded preceding) as c,
                  sum(n) over (partition by event_type) as cleared
             from g where ttr is not null
         ),
         p90 as (
           select event_type, min(ttr) as p90_ttr_s from cum where c >= ceil(0.9::float8 * cleared)
            group by event_type
         )
         select g.event_type, sum(n) as count, sum(silenced) as silenced, sum(n_ack) as acknowledged,
                coalesce(sum(n) filter (where ttr is not null), 0) as cleared,
                round(sum(ack_s) / nullif(sum(n_ack), 0))::bigint as mtta_s,
                round(sum(ttr * n) filter (where ttr is not null) / nullif(sum(n) filter (where ttr is not null), 0))::bigint
                  as mttr_s,
                min(p90.p90_ttr_s) as p90_ttr_s
           from g left join p90 on p90.event_type = g.event_type
          group by g.event_type
          order by g.event_type`,
        [scope.id, period.from, period.to],
      );
      return rows.map((r) => ({
        event_type: num(r.event_type),
        count: num(r.count),
        silenced: num(r.silenced),
        acknowledged: num(r.acknowledged),
        cleared: num(r.cleared),
        mtta_s: nullableNum(r.mtta_s),
        mttr_s: nullableNum(r.mttr_s),
        p90_ttr_s: nullableNum(r.p90_ttr_s),
      }));
    },

    /**
     * The time zone a schedule of `scope` keeps (docs/reports.md): a site's own; for a company the zone most of its
     * sites in service use (the lowest site id breaks a tie), UTC when it has none; UTC for an agent.
     */
    async scheduleZone(scope: ReadScope): Promise<string> {
      if (scope.kind === 'agent') return 'UTC';
      const rows = await database.query<{ timezone: string }>(
        scope.kind === 'site'
          ? 'select timezone from sites where id = $1'
          : `select timezone from sites where company_id = $1 and decommissioned_at is null
              group by timezone order by count(*) desc, min(id) limit 1`,
        [scope.id],
      );
      return rows[0]?.timezone ?? 'UTC';
    },

    /** The name of a scope, for a report's title: an agent's, a company's, or a site's title and number. */
    async scopeName(scope: ReadScope): Promise<string> {
      const sql =
        scope.kind === 'agent'
          ? 'select name from agents where id = $1'
          : scope.kind === 'company'
            ? 'select name from companies where id = $1'
            : `select title || ' (' || number || ')' as name from sites where id = $1`;
      const rows = await database.query<{ name: string }>(sql, [scope.id]);
      return rows[0]?.name ?? `${scope.kind} ${scope.id}`;
    },
  };
}
export type ReportReadModel = ReturnType<typeof createReportReadModel>;
