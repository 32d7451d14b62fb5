import type { AlertRulePreview, RuleOp } from '@forecourt/contract/alert-rules';
import type { Target } from '@forecourt/contract/targets';
import { TELEMETRY_SIGNALS, type TelemetrySignal } from '@forecourt/contract/telemetry-history';
import type { Database } from '../db/client.ts';
import { num, Params } from './read-scope.ts';
import { targetWhereSql } from './target-sql.ts';

export interface PreviewCondition {
  target: Target;
  signal: TelemetrySignal;
  op: RuleOp;
  threshold: number;
  for_s: number;
  clear_threshold: number | null;
}

/**
 * What a telemetry rule would have fired on over a past range, from the hourly roll-ups (docs/rules-and-maintenance.md
 * "The editor's preview"), in one statement. Per terminal of the target and hour with readings of the signal:
 * - the hour *breaches* when its extreme (min for `<`/`<=`, max for `>`/`>=`) meets `op threshold`;
 * - it *holds* when that extreme meets `op clear_threshold` (an alert raised earlier would not have cleared in it);
 * - an episode is a run of holding hours (hours without readings neither break nor extend it); it fires in the first
 *   hour of a run of breaching hours whose span (first hour's start to this hour's end) reaches `for_s`, and raises
 *   one alert. Hour granularity makes this an upper estimate: a breaching hour counts as breaching throughout.
 */
export function createRulePreviewRepository(database: Database) {
  const q = database.query.bind(database);
  return {
    async preview(
      rule: PreviewCondition,
      range: { from: Date; to: Date },
      limit: number,
    ): Promise<Omit<AlertRulePreview, 'available' | 'from' | 'to'>> {
      if (!TELEMETRY_SIGNALS.includes(rule.signal)) throw new Error(`not a telemetry signal: ${rule.signal}`);
      const p = new Params();
      const low = rule.op === '<' || rule.op === '<=';
      // The signal and op come from fixed lists (checked above and by the schema): safe to spell in the SQL.
      const extreme = `h.${rule.signal}_${low ? 'min' : 'max'}`;
      const thr = `${p.add(rule.threshold)}::float8`;
      const clear = `${p.add(rule.clear_threshold ?? rule.threshold)}::float8`;
      const forS = `${p.add(rule.for_s)}::int`;
      const rows = await q<{
        terminals: number | string;
        fired: number | string;
        alerts: number | string;
        first: Array<{
          id: number;
          terminal_no: string;
          site_id: number;
          site_title: string;
          first_at: string;
          alerts: number;
        }> | null;
      }>(
        `with tt as (
           select t.id, t.terminal_no, t.site_id from terminals t where ${targetWhereSql(rule.target, p)}
         ),
         b as (
           select h.terminal_id, h.hour,
                  ${extreme} ${rule.op} ${thr} as breach,
                  ${extreme} ${rule.op} ${clear} as hold,
                  row_number() over (partition by h.terminal_id order by h.hour) as rn
             from telemetry_hourly h join tt on tt.id = h.terminal_id
            where h.hour >= ${p.add(range.from.toISOString())}::timestamptz
              and h.hour < ${p.add(range.to.toISOString())}::timestamptz
              and h.${rule.signal}_n > 0
         ),
         holding as (
           select b.*, b.rn - row_number() over (partition by b.terminal_id order by b.hour) as episode
             from b where b.hold
         ),
         breaching as (
           select x.*, x.rn - row_number() over (partition by x.terminal_id order by x.hour) as run
             from holding x where x.breach
         ),
         spans as (
           select y.*, min(y.hour) over (partition by y.terminal_id, y.run) as run_start from breaching y
         ),
         fires as (
           select s.terminal_id, s.episode, min(s.hour) as fired_at
             from spans s
            where s.hour + interval '1 hour' - s.run_start >= make_interval(secs => ${forS})
            group by s.terminal_id, s.episode
         ),
         per_terminal as (
           select f.terminal_id, min(f.fired_at) as first_at, count(*) as alerts from fires f group by f.terminal_id
         )
         select (select count(*) from tt) as terminals,
                (select count(*) from per_terminal) as fired,
                (select coalesce(sum(alerts), 0) from per_terminal) as alerts,
                (select json_agg(z order by z.first_at, z.id) from (
                   select tt.id, tt.terminal_no, tt.site_id, s.title as site_title, pt.first_at, pt.alerts
                     from per_terminal pt join tt on tt.id = pt.terminal_id join sites s on s.id = tt.site_id
                    order by pt.first_at, tt.id
                    limit ${p.add(limit)}
                 ) z) as first`,
        p.values,
      );
      const r = rows[0]!;
      return {
        terminals: num(r.terminals),
        fired: num(r.fired),
        alerts: num(r.alerts),
        first: (r.first ?? []).map((x) => ({
          id: num(x.id),
          terminal_id: x.terminal_no,
          site_id: num(x.site_id),
          site_title: x.site_title,
          first_at: new Date(x.first_at).toISOString(),
          alerts: num(x.alerts),
        })),
      };
    },
  };
}
export type RulePreviewRepository = ReturnType<typeof createRulePreviewRepository>;
