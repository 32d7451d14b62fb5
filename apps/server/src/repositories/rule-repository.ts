import {
  type AlertRule,
  noSalesAlertText,
  RULE_EVENT_TYPE,
  type RuleOp,
  type RuleSignal,
  type RuleState,
  ruleAlertText,
} from '@forecourt/contract/alert-rules';
import type { Severity } from '@forecourt/contract/events';
import { TELEMETRY_SIGNALS, type TelemetrySignal } from '@forecourt/contract/telemetry-history';
import type { Database } from '../db/client.ts';
import { raiseAlertsSql } from './alert-sql.ts';
import type { ChangeInput } from './change-repository.ts';
import { iso, num, Params } from './read-scope.ts';
import {
  type Place,
  type RuleActor,
  type StoredTargetRow,
  storedTargetOf,
  targetParams,
  targetReachesSql,
  visibleToSql,
} from './rule-sql.ts';
import type { Tx } from './unit-of-work.ts';

/** What a caller reaches (the principal's scope). */
export interface Visibility {
  agentId: number | null;
  companyIds: number[];
  siteIds: number[];
}

export type { Place, RuleActor };

export interface RuleRecord extends AlertRule {
  place: Place;
}

/** A rule's fields as written. */
export interface RuleFields {
  name: string;
  scopeKind: string;
  scopeId: number;
  tags: string[];
  place: Place;
  signal: RuleSignal;
  op: RuleOp;
  threshold: number;
  forS: number;
  clearThreshold: number | null;
  severity: Severity;
  enabled: boolean;
}

/** An enabled telemetry rule with its state for one terminal. */
export interface RuleWithState {
  id: number;
  name: string;
  signal: TelemetrySignal;
  op: RuleOp;
  threshold: number;
  for_s: number;
  clear_threshold: number | null;
  severity: Severity;
  state: RuleState;
}

/** The terminal a rule alert is raised at. */
export interface AlertPlace {
  id: number;
  siteId: number;
  companyId: number;
  agentId: number;
}

/** The 'alert' change of a terminal whose alerts a rule raised or cleared. */
const alertChange = (t: AlertPlace): ChangeInput => ({
  kind: 'alert',
  agentId: t.agentId,
  companyId: t.companyId,
  siteId: t.siteId,
  terminalId: t.id,
});

/** A rule alert to raise. */
export interface Firing {
  ruleId: number;
  severity: Severity;
  text: string;
  at: Date;
}

/** What a terminal's sales did to its `no_sales` alerts: how many cleared, and its 'alert' change when some did. */
export interface SalesWrites {
  cleared: number;
  changes: ChangeInput[];
}

/** What one evaluation writes: new states, then the alerts raised and cleared, in order. */
export interface RuleWrites {
  states: Array<{ ruleId: number; state: RuleState; value: number | null }>;
  actions: Array<({ kind: 'fire' } & Firing) | { kind: 'clear'; ruleId: number; at: Date }>;
}

interface DbRule extends StoredTargetRow {
  id: number;
  name: string;
  signal: string;
  op: string;
  threshold: number;
  for_s: number;
  clear_threshold: number | null;
  severity: string;
  enabled: boolean;
  created_by: string;
  created_at: Date | string;
}

/** A rule due at a terminal (the sweeps), with the terminal's place. */
type DueRow = DbRule & { terminal_id: number; t_site_id: number; t_company_id: number; t_agent_id: number };

const COLS = `r.id, r.name, r.scope_kind, r.scope_id, r.tags, r.agent_id, r.company_id, r.site_id, r.signal, r.op,
              r.threshold, r.for_s, r.clear_threshold, r.severity, r.enabled, r.created_by, r.created_at`;

/** The columns of a rule's condition and severity. */
type DbCondition = Pick<DbRule, 'signal' | 'op' | 'threshold' | 'for_s' | 'clear_threshold' | 'severity'>;

/** A rule's condition and severity in the API's shape. */
const conditionOf = (r: DbCondition) => ({
  signal: r.signal as RuleSignal,
  op: r.op as RuleOp,
  threshold: Number(r.threshold),
  for_s: num(r.for_s),
  clear_threshold: r.clear_threshold === null ? null : Number(r.clear_threshold),
  severity: r.severity as Severity,
});

function toRule(r: DbRule): RuleRecord {
  const { target, place } = storedTargetOf(r);
  return {
    id: num(r.id),
    name: r.name,
    target,
    ...conditionOf(r),
    enabled: r.enabled,
    created_by: r.created_by,
    created_at: iso(r.created_at)!,
    place,
  };
}

/** A rule's fields as SQL parameters, in the order of its columns from `name` to `enabled`. */
const fieldParams = (f: RuleFields) => [
  f.name,
  ...targetParams(f),
  f.signal,
  f.op,
  f.threshold,
  f.forS,
  f.clearThreshold,
  f.severity,
  f.enabled,
];

const ms = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());

/**
 * Alert rules, their per-terminal state and the alerts they raise (docs/rules-and-maintenance.md). A rule's own
 * writes take the unit of work's `tx` (services/rule-admin.ts audits them), and so do the evaluation's and the
 * `for_s` sweep's (services/alert-rules.ts opens them); the state of a rule and a terminal is locked while it is
 * evaluated, so two nodes evaluating readings of one terminal at once fire once.
 */
export function createRuleRepository(database: Database) {
  /** Clears the active alerts of a rule (all terminals), forgets its states; answers the places touched. */
  async function clearRule(q: Tx, ruleId: number, now: Date): Promise<ChangeInput[]> {
    const rows = await q<{ agent_id: number; company_id: number; site_id: number; terminal_id: number }>(
      `update alerts set state = 'cleared', cleared_at = $2 where rule_id = $1 and state = 'active'
       returning agent_id, company_id, site_id, terminal_id`,
      [ruleId, now],
    );
    await q('delete from rule_states where rule_id = $1', [ruleId]);
    return rows.map((r) => ({
      kind: 'alert',
      agentId: r.agent_id,
      companyId: r.company_id,
      siteId: r.site_id,
      terminalId: r.terminal_id,
    }));
  }

  /** Raises rule alerts at one terminal (one active per rule: a second is ignored), with their mails. */
  async function raise(q: Tx, t: AlertPlace, fire: Firing[]): Promise<number> {
    if (!fire.length) return 0;
    const rows = await q(
      raiseAlertsSql(
        `insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at, severity, rule_id)
         select $1::int, $2::int, $3::int, $4::int, ${RULE_EVENT_TYPE}, u.text, u.at, u.severity, u.rule_id
           from unnest($5::text[], $6::timestamptz[], $7::text[], $8::int[]) as u(text, at, severity, rule_id)
         on conflict (rule_id, terminal_id) where state = 'active' and rule_id is not null do nothing`,
      ),
      [
        t.id,
        t.siteId,
        t.companyId,
        t.agentId,
        fire.map((f) => f.text),
        fire.map((f) => f.at),
        fire.map((f) => f.severity),
        fire.map((f) => f.ruleId),
      ],
    );
    return rows.length;
  }

  return {
    /**
     * Whether this process is the database's only writer (PGlite, embedded): then every rule state is written
     * here, and what this node read of them stays true until it writes them itself (services/alert-rules.ts).
     */
    soleWriter: database.kind === 'pglite',

    async list(v: Visibility, page: { limit: number; before?: string }): Promise<RuleRecord[]> {
      const p = new Params();
      const where = [
        'r.deleted_at is null',
        visibleToSql('r', p.add(v.agentId), p.add(v.companyIds), p.add(v.siteIds)),
      ];
      if (page.before) where.push(`r.id < ${p.add(page.before)}::int`);
      const rows = await database.query<DbRule>(
        `select ${COLS} from alert_rules r where ${where.join(' and ')} order by r.id desc limit ${p.add(page.limit)}`,
        p.values,
      );
      return rows.map(toRule);
    },

    /** A rule (not deleted) and whether `v` may read it; null when there is none. */
    async byId(id: number, v: Visibility): Promise<{ rule: RuleRecord; visible: boolean } | null> {
      const rows = await database.query<DbRule & { visible: boolean }>(
        `select ${COLS}, ${visibleToSql('r', '$2', '$3', '$4')} as visible
           from alert_rules r where r.id = $1 and r.deleted_at is null`,
        [id, v.agentId, v.companyIds, v.siteIds],
      );
      const r = rows[0];
      return r ? { rule: toRule(r), visible: r.visible } : null;
    },

    async insert(tx: Tx, actor: RuleActor, f: RuleFields): Promise<RuleRecord> {
      const rows = await tx<DbRule>(
        `insert into alert_rules as r (name, scope_kind, scope_id, tags, agent_id, company_id, site_id, signal, op,
                                    threshold, for_s, clear_threshold, severity, enabled, created_by, created_by_id)
         values ($1, $2, $3, $4::text[], $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         returning ${COLS}`,
        [...fieldParams(f), actor.username, actor.userId],
      );
      return toRule(rows[0]!);
    },

    /** Writes a rule's new fields; answers it as it now is. */
    async update(tx: Tx, id: number, f: RuleFields): Promise<RuleRecord> {
      const rows = await tx<DbRule>(
        `update alert_rules r set name = $2, scope_kind = $3, scope_id = $4, tags = $5::text[], agent_id = $6,
                company_id = $7, site_id = $8, signal = $9, op = $10, threshold = $11, for_s = $12,
                clear_threshold = $13, severity = $14, enabled = $15
          where r.id = $1 and r.deleted_at is null
          returning ${COLS}`,
        [id, ...fieldParams(f)],
      );
      return toRule(rows[0]!);
    },

    /** Marks a rule deleted (and disabled): it leaves every list. */
    async markDeleted(tx: Tx, id: number, now: Date): Promise<void> {
      await tx('update alert_rules set deleted_at = $2, enabled = false where id = $1', [id, now]);
    },

    /** Clears the active alerts of a rule and forgets its states; answers the alert changes of the places. */
    clearAlerts: clearRule,

    /** The signals of the enabled telemetry rules (a terminal's readings are evaluated only for these). */
    async enabledSignals(): Promise<Set<string>> {
      const rows = await database.query<{ signal: string }>(
        `select distinct signal from alert_rules where enabled and deleted_at is null and signal <> 'no_sales'`,
      );
      return new Set(rows.map((r) => r.signal));
    },

    /**
     * Every enabled telemetry rule reaching a terminal, of every signal, without state: what a node keeps per
     * terminal until the next 'fleet' change (services/alert-rules.ts).
     */
    async rulesReaching(terminalId: number): Promise<RuleWithState[]> {
      return loadRules(
        (sql, params) => database.query(sql, params),
        terminalId,
        TELEMETRY_SIGNALS,
        null,
        false,
      );
    },

    /**
     * The rule states of these terminals that are not at rest (pending or firing), not locked, by terminal and rule;
     * a pair missing from the answer is at rest.
     */
    async busyStates(terminalIds: readonly number[]): Promise<Map<number, Map<number, RuleState>>> {
      const rows = await database.query<{
        terminal_id: number;
        rule_id: number;
        pending_since: Date | string | null;
        firing: boolean;
        last_at: Date | string | null;
      }>(
        `select terminal_id, rule_id, pending_since, firing, last_at from rule_states
          where terminal_id = any($1::int[]) and (pending_since is not null or firing)`,
        [terminalIds],
      );
      const out = new Map<number, Map<number, RuleState>>();
      for (const r of rows) {
        const t = num(r.terminal_id);
        let m = out.get(t);
        if (!m) {
          m = new Map();
          out.set(t, m);
        }
        m.set(num(r.rule_id), { pendingSince: ms(r.pending_since), firing: r.firing, lastAt: ms(r.last_at) });
      }
      return out;
    },

    /**
     * Evaluates readings of one terminal under lock, in the caller's unit of work: `decide` gets the rules with
     * their locked states and answers the writes (states, raised and cleared alerts, the 'alert' change).
     */
    async evaluate(
      q: Tx,
      t: AlertPlace,
      ruleIds: number[],
      signals: readonly string[],
      decide: (rules: RuleWithState[]) => RuleWrites,
    ): Promise<{ raised: number; cleared: number }> {
      await q(
        `insert into rule_states (terminal_id, rule_id) select $1, unnest($2::int[]) order by 2
         on conflict do nothing`,
        [t.id, ruleIds],
      );
      const rules = await loadRules(q, t.id, signals, ruleIds);
      const w = decide(rules);
      if (w.states.length) {
        await q(
          `update rule_states s set pending_since = u.pending_since, firing = u.firing, last_at = u.last_at,
                  last_value = coalesce(u.value, s.last_value)
             from unnest($2::int[], $3::timestamptz[], $4::boolean[], $5::timestamptz[], $6::float8[])
                  as u(rule_id, pending_since, firing, last_at, value)
            where s.terminal_id = $1 and s.rule_id = u.rule_id`,
          [
            t.id,
            w.states.map((s) => s.ruleId),
            w.states.map((s) => (s.state.pendingSince === null ? null : new Date(s.state.pendingSince))),
            w.states.map((s) => s.state.firing),
            w.states.map((s) => (s.state.lastAt === null ? null : new Date(s.state.lastAt))),
            w.states.map((s) => s.value),
          ],
        );
      }
      let cleared = 0;
      let raised = 0;
      for (const a of w.actions) {
        if (a.kind === 'fire') {
          raised += await raise(q, t, [a]);
          continue;
        }
        const rows = await q(
          `update alerts set state = 'cleared', cleared_at = $3
            where rule_id = $1 and terminal_id = $2 and state = 'active' returning id`,
          [a.ruleId, t.id, a.at],
        );
        cleared += rows.length;
      }
      if (raised + cleared > 0) await q.changed(alertChange(t));
      return { raised, cleared };
    },

    /**
     * Fires the telemetry rules whose condition has held `for_s` since a reading that did not yet fire them (the
     * sweep: "whichever comes first, the next reading or the sweep"), in the caller's unit of work; the states it
     * fires are locked (SKIP LOCKED: two sweeps at once fire each once). Answers how many fired.
     */
    async fireDue(q: Tx, now: Date): Promise<number> {
      const due = await q<DueRow & { last_value: number | null }>(
        `select ${COLS}, s.terminal_id, s.last_value, t.site_id as t_site_id, t.company_id as t_company_id,
                t.agent_id as t_agent_id
           from rule_states s
           join alert_rules r on r.id = s.rule_id
           join terminals t on t.id = s.terminal_id
          where s.pending_since is not null and not s.firing and r.enabled and r.deleted_at is null
            and r.signal <> 'no_sales' and s.pending_since + make_interval(secs => r.for_s) <= $1
            and ${targetReachesSql('r', 't')}
          order by s.terminal_id, s.rule_id
          limit 1000
            for update of s skip locked`,
        [now],
      );
      let fired = 0;
      const changes: ChangeInput[] = [];
      for (const d of due) {
        const rule = toRule(d);
        await q('update rule_states set firing = true where terminal_id = $1 and rule_id = $2', [
          d.terminal_id,
          rule.id,
        ]);
        const place = {
          id: d.terminal_id,
          siteId: d.t_site_id,
          companyId: d.t_company_id,
          agentId: d.t_agent_id,
        };
        const text = ruleAlertText(
          { ...rule, signal: rule.signal as TelemetrySignal },
          Number(d.last_value ?? rule.threshold),
        );
        const n = await raise(q, place, [{ ruleId: rule.id, severity: rule.severity, text, at: now }]);
        fired += n;
        if (n) changes.push(alertChange(place));
      }
      await q.changed(changes);
      return fired;
    },

    /**
     * A terminal sold: its transactions are rolled up by local hour of its site, its last sale moves on, and its
     * active `no_sales` alerts clear. Answers how many cleared and the terminal's 'alert' change when some did.
     */
    async recordSales(tx: Tx, t: AlertPlace, ats: Date[], now: Date): Promise<SalesWrites> {
      if (!ats.length) return { cleared: 0, changes: [] };
      await tx(
        `insert into sales_hours (terminal_id, local_hour, n)
         select $1::int, date_trunc('hour', u.at at time zone s.timezone), count(*)
           from unnest($3::timestamptz[]) as u(at), sites s
          where s.id = $2
          group by 2
          order by 2
         on conflict (terminal_id, local_hour) do update set n = sales_hours.n + excluded.n`,
        [t.id, t.siteId, ats],
      );
      const last = new Date(Math.max(...ats.map((a) => a.getTime())));
      await tx(
        `insert into sales_terminals (terminal_id, last_at) values ($1, $2)
         on conflict (terminal_id) do update
           set last_at = greatest(coalesce(sales_terminals.last_at, '-infinity'::timestamptz), excluded.last_at)`,
        [t.id, last],
      );
      const cleared = await tx(
        `with c as (
           update alerts a set state = 'cleared', cleared_at = $2
            where a.terminal_id = $1 and a.state = 'active' and a.event_type = ${RULE_EVENT_TYPE}
              and a.rule_id in (select id from alert_rules where signal = 'no_sales')
           returning a.rule_id
         ), s as (
           update rule_states s set firing = false from c where s.terminal_id = $1 and s.rule_id = c.rule_id
         )
         select rule_id from c`,
        [t.id, now],
      );
      return { cleared: cleared.length, changes: cleared.length ? [alertChange(t)] : [] };
    },

    /**
     * The `no_sales` sweep, one statement after the rules are read: the terminals that have not sold for the
     * shortest `for_s` of the enabled `no_sales` rules are the candidates; their baseline for the current local hour
     * (the same hour of the four previous weeks, averaged) is refreshed when that hour has turned; those whose
     * baseline reaches the lowest threshold are joined with the rules that reach them, usually sell that much and
     * whose `for_s` has passed; these fire. Answers how many fired and the terminals' 'alert' changes.
     */
    async sweepNoSales(tx: Tx, now: Date): Promise<{ fired: number; changes: ChangeInput[] }> {
      const rules = await tx<{ id: number; for_s: number; threshold: number }>(
        `select id, for_s, threshold from alert_rules where enabled and deleted_at is null and signal = 'no_sales'`,
      );
      if (!rules.length) return { fired: 0, changes: [] };
      // Planned as a baseline look-up per terminal, the statement's cost passes jit_above_cost, and compiling it
      // takes longer than running it (about a second on 20,000 terminals: bench:no-sales).
      await tx('set local jit = off');
      const due = await tx<
        DbRule & {
          terminal_id: number;
          t_site_id: number;
          t_company_id: number;
          t_agent_id: number;
          last_sale: Date | string | null;
          baseline: number;
        }
      >(
        `with zones as (
           -- The local hour once per time zone, not once per terminal.
           select z.tz, date_trunc('hour', $1::timestamptz at time zone z.tz) as hour
             from (select distinct timezone as tz from sites) z
         ), quiet as (
           select st.terminal_id, st.last_at, st.baseline_hour, st.baseline, zones.hour, t.site_id, t.company_id,
                  t.agent_id, t.tags, t.decommissioned_at
             from sales_terminals st
             join terminals t on t.id = st.terminal_id
             join sites s on s.id = t.site_id
             join zones on zones.tz = s.timezone
            where t.decommissioned_at is null
              and coalesce(st.last_at, '-infinity'::timestamptz) <= $1::timestamptz - make_interval(secs => $2::int)
         ), fresh as (
           update sales_terminals st
              set baseline_hour = q.hour,
                  baseline = (select coalesce(sum(h.n), 0) / 4.0 from sales_hours h
                               where h.terminal_id = q.terminal_id
                                 and h.local_hour in (q.hour - interval '7 days', q.hour - interval '14 days',
                                                      q.hour - interval '21 days', q.hour - interval '28 days'))
             from (select * from quiet where baseline_hour is distinct from hour) q
            where st.terminal_id = q.terminal_id
           returning st.terminal_id, st.baseline
         ), c as materialized (
           -- Kept apart so the baseline filter runs before the rules' targets are matched.
           select q.terminal_id as id, q.site_id, q.company_id, q.agent_id, q.tags, q.decommissioned_at, q.last_at,
                  coalesce(f.baseline, q.baseline) as baseline
             from quiet q left join fresh f on f.terminal_id = q.terminal_id
            where coalesce(f.baseline, q.baseline) >= $3::float8
         )
         select ${COLS}, c.id as terminal_id, c.site_id as t_site_id, c.company_id as t_company_id,
                c.agent_id as t_agent_id, c.last_at as last_sale, c.baseline
           from c
           join alert_rules r on r.id = any($4::int[]) and ${targetReachesSql('r', 'c')}
           left join rule_states rs on rs.rule_id = r.id and rs.terminal_id = c.id
          where c.baseline >= r.threshold
            and coalesce(c.last_at, '-infinity'::timestamptz) <= $1::timestamptz - make_interval(secs => r.for_s)
            and not coalesce(rs.firing, false)
          order by c.id, r.id
          limit 5000`,
        [
          now,
          Math.min(...rules.map((r) => num(r.for_s))),
          Math.min(...rules.map((r) => Number(r.threshold))),
          rules.map((r) => num(r.id)),
        ],
      );
      if (!due.length) return { fired: 0, changes: [] };
      await tx(
        `insert into rule_states (terminal_id, rule_id, firing, last_at)
         select u.t, u.r, true, $3 from unnest($1::int[], $2::int[]) as u(t, r)
         on conflict (terminal_id, rule_id) do update set firing = true, last_at = excluded.last_at`,
        [due.map((d) => d.terminal_id), due.map((d) => d.id), now],
      );
      let fired = 0;
      const changes: ChangeInput[] = [];
      for (const d of due) {
        const rule = toRule(d);
        const since = d.last_sale === null ? null : ms(d.last_sale)!;
        const minutes = since === null ? rule.for_s / 60 : (now.getTime() - since) / 60_000;
        const place = {
          id: d.terminal_id,
          siteId: d.t_site_id,
          companyId: d.t_company_id,
          agentId: d.t_agent_id,
        };
        const n = await raise(tx, place, [
          {
            ruleId: rule.id,
            severity: rule.severity,
            text: noSalesAlertText(rule.name, minutes, Number(d.baseline)),
            at: now,
          },
        ]);
        fired += n;
        if (n) changes.push(alertChange(place));
      }
      return { fired, changes };
    },
  };
}
export type RuleRepository = ReturnType<typeof createRuleRepository>;

type Runner = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

async function loadRules(
  q: Runner,
  terminalId: number,
  signals: readonly string[],
  lockIds: number[] | null,
  withStates = true,
): Promise<RuleWithState[]> {
  const rows = await q<
    Pick<DbRule, 'id' | 'name'> &
      DbCondition & {
        pending_since: Date | string | null;
        firing: boolean | null;
        last_at: Date | string | null;
      }
  >(
    lockIds
      ? `select r.id, r.name, r.signal, r.op, r.threshold, r.for_s, r.clear_threshold, r.severity,
                s.pending_since, s.firing, s.last_at
           from rule_states s
           join alert_rules r on r.id = s.rule_id
           join terminals t on t.id = s.terminal_id
          where s.terminal_id = $1 and s.rule_id = any($3::int[]) and r.signal = any($2::text[])
            and r.enabled and r.deleted_at is null and ${targetReachesSql('r', 't')}
          order by s.rule_id
            for update of s`
      : `select r.id, r.name, r.signal, r.op, r.threshold, r.for_s, r.clear_threshold, r.severity,
                ${withStates ? 's.pending_since, s.firing, s.last_at' : 'null as pending_since, null as firing, null as last_at'}
           from alert_rules r
           join terminals t on t.id = $1
           ${withStates ? 'left join rule_states s on s.terminal_id = t.id and s.rule_id = r.id' : ''}
          where r.enabled and r.deleted_at is null and r.signal = any($2::text[]) and ${targetReachesSql('r', 't')}
          order by r.id`,
    lockIds ? [terminalId, signals, lockIds] : [terminalId, signals],
  );
  return rows.map((r) => ({
    id: num(r.id),
    name: r.name,
    ...conditionOf(r),
    signal: r.signal as TelemetrySignal,
    state: { pendingSince: ms(r.pending_since), firing: r.firing ?? false, lastAt: ms(r.last_at) },
  }));
}
