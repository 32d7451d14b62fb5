import { EVENT_CATALOGUE, eventTexts } from '@forecourt/contract/events';
import { PUMP_STATUS_CODES, PUMP_STATUS_NORMAL, pumpStatusText } from '@forecourt/contract/pumps';
import { carrierSql } from '../../repositories/pump-carrier.ts';
import { rollUpSalesHistory } from '../../repositories/sales-rollup.ts';
import type { Database } from '../client.ts';
import {
  clusterClosedRollupMonths,
  ensureHistoryPartitions,
  ROLLUP_GRACE_MS,
  rollUpHours,
} from '../telemetry-history.ts';
import { seedDemo } from './demo.ts';
import { ALERT_WEIGHTS } from './demo-fleet.ts';

/** The catalogue's severity of `event_type` (docs/event-types.md); uncatalogued types are 'minor'. */
const SEVERITY_OF_TYPE = `case event_type ${EVENT_CATALOGUE.map((e) => `when ${e.code} then '${e.severity}'`).join(' ')} else 'minor' end`;

/**
 * The scale data set (`SEED=large`) used by the benchmarks: at LARGE_SCALE=1, 5,000 sites, 20,000 terminals,
 * 30,000 pumps, ~10.1M telemetry rows, ~1M alerts and two weeks of every other log, all under the demo agent
 * (so `agent` sees it all) in 12 extra companies. Built with set-based SQL (`generate_series`,
 * `insert ... select`), in time order so ids follow time as they do for live data. LARGE_SCALE (e.g. 0.1)
 * scales every count; deterministic (hash-based, no random()).
 */

export const LARGE_MARKER = 'seed_large';
const DAYS = 14;
/** Days of offline history (cleared outages) for the availability reports, and outage slots per terminal. */
const OFFLINE_DAYS = 35;
const OFFLINE_SLOTS = 5;
const TERMINALS_PER_SITE = 4;
const PUMPS_PER_SITE = 6;
const COMPANY_NAMES = [
  'Albion Fuel Cards',
  'Pennine Petroleum',
  'Thames Valley Fuels',
  'Highland Energy',
  'Severn Forecourts',
  'Anglia Oil',
  'Cambrian Fuels',
  'Wessex Petroleum',
  'Mercia Fuel Services',
  'Borders Energy',
  'Solent Fuels',
  'Humber Petroleum',
];
const TOWNS = [
  'Aberdeen',
  'Bath',
  'Bedford',
  'Blackpool',
  'Bolton',
  'Bournemouth',
  'Bradford',
  'Cambridge',
  'Canterbury',
  'Cardiff',
  'Carlisle',
  'Chelmsford',
  'Chester',
  'Colchester',
  'Doncaster',
  'Dundee',
  'Durham',
  'Gloucester',
  'Hull',
  'Inverness',
  'Ipswich',
  'Lancaster',
  'Lincoln',
  'Luton',
  'Middlesbrough',
  'Milton Keynes',
  'Norwich',
  'Perth',
  'Peterborough',
  'Plymouth',
  'Preston',
  'Salisbury',
  'Shrewsbury',
  'Stirling',
  'Sunderland',
  'Swansea',
  'Swindon',
  'Telford',
  'Truro',
  'Wakefield',
  'Warrington',
  'Winchester',
  'Worcester',
  'Wrexham',
];
const ROADS = [
  'High Street',
  'London Road',
  'Station Road',
  'Ring Road',
  'Bypass',
  'Church Lane',
  'Mill Road',
  'Park Road',
];

export interface LargeSeedSummary {
  scale: number;
  companies: number;
  sites: number;
  terminals: number;
  pumps: number;
  telemetry: number;
  alerts: number;
  shocks: number;
  pumpStatusEntries: number;
  transactions: number;
  connectivityEvents: number;
  commands: number;
  seconds: number;
}

/** LARGE_SCALE from the environment: a positive number, 1 by default. */
export function largeScale(raw = process.env.LARGE_SCALE): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 10)
    throw new Error(`LARGE_SCALE must be a number above 0, at most 10 (got ${raw})`);
  return n;
}

/** LARGE_HISTORY from the environment (validated in config/env.ts): on, true or 1 turns the history mode on. */
export function largeHistory(raw = process.env.LARGE_HISTORY): boolean {
  return raw === 'on' || raw === 'true' || raw === '1';
}

/** The history mode (bench:history): raw readings for this many days, one per 5 minutes, roll-ups for two years. */
export const HISTORY_RAW_DAYS = 90;
export const HISTORY_ROLLUP_DAYS = 730;
const HISTORY_PER_DAY = 288;

/** Uniform in [0, 1) from a bigint SQL expression: deterministic, unlike random(). */
const u = (expr: string) => `((hashint8((${expr})::bigint)::bigint & 2147483647)::float8 / 2147483648.0)`;

/** Latest telemetry values for terminal `t`, at point `p` of `n` (0 = two weeks ago, n-1 = now). */
function telemetryValues(id: string, p: string, n: string, hour: string) {
  const t = `(${id})::bigint`;
  const frac = `((${p})::float8 / greatest(1, (${n}) - 1))`;
  const daily = `sin(2 * pi() * ((${hour}) - 9) / 24)`;
  return {
    battery: `round(greatest(1, 100 - 97 * ${u(`${t} * 3 + 1`)} * (0.6 + 0.4 * ${frac}))::numeric, 1)::float8`,
    flash: `round(greatest(1, 100 - 99 * ${u(`${t} * 5 + 2`)} * (0.9 + 0.1 * ${frac}))::numeric, 1)::float8`,
    board: `round((34 + 14 * ${u(`${t} * 7 + 3`)} + 4 * ${daily} + 2 * ${u(`${t} * 100000 + (${p})`)})::numeric, 1)::float8`,
    cabinet: `round((16 + 10 * ${u(`${t} * 11 + 4`)} + 5 * ${daily} + ${u(`${t} * 200000 + (${p})`)})::numeric, 1)::float8`,
    humidity: `round((32 + 30 * ${u(`${t} * 13 + 5`)} - 6 * ${daily} + 4 * ${u(`${t} * 300000 + (${p})`)})::numeric, 1)::float8`,
  };
}

type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

const BULK_TABLES = [
  'telemetry',
  'alerts',
  'shocks',
  'pump_status_entries',
  'transactions',
  'connectivity_events',
  'commands',
  'command_events',
];

/** Drops the secondary indexes of `tables` (not those behind a constraint) and returns their definitions. */
async function dropIndexes(q: Query, tables: string[]) {
  const indexes = await q<{ indexname: string; indexdef: string }>(
    `select i.indexname, i.indexdef from pg_indexes i
      where i.schemaname = current_schema() and i.tablename = any($1::text[])
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
      order by i.tablename, i.indexname`,
    [tables],
  );
  for (const index of indexes) await q(`drop index "${index.indexname.replace(/"/g, '""')}"`);
  return indexes;
}

/** Builds the scale data set; skipped when it is already there. `log` gets one line per step. */
export async function seedLarge(
  database: Database,
  opts: { scale?: number; history?: boolean; log?: (line: string) => void; now?: Date } = {},
): Promise<LargeSeedSummary | null> {
  const scale = opts.scale ?? largeScale();
  const history = opts.history ?? largeHistory();
  const log = opts.log ?? ((line: string) => console.log(`[seed:large] ${line}`));
  const done = await database.query<{ value: string }>('select value from meta where key = $1', [
    LARGE_MARKER,
  ]);
  if (done.length) {
    log('already seeded, skipping');
    return null;
  }

  const started = Date.now();
  const nSites = Math.max(1, Math.round(5000 * scale));
  const nTerminals = nSites * TERMINALS_PER_SITE;
  // Telemetry covers DAYS (two weeks) like every other log, or HISTORY_RAW_DAYS in the history mode.
  const tDays = history ? HISTORY_RAW_DAYS : DAYS;
  const telemetryPerDay = history ? HISTORY_PER_DAY : Math.ceil((10_000_000 * scale) / (nTerminals * DAYS));
  const alertSlots = Math.ceil((1_000_000 * scale) / (nTerminals * DAYS));
  const alertKeep = Math.min(1, ((1_000_000 * scale) / (nTerminals * DAYS * alertSlots)) * 1.01);
  const now = opts.now ?? new Date();
  const since = new Date(now.getTime() - DAYS * 86_400_000);
  const tSince = new Date(now.getTime() - tDays * 86_400_000);
  const step = 86_400 / telemetryPerDay;
  log(
    `scale ${scale}: ${nSites} sites, ${nTerminals} terminals, ~${(nTerminals * telemetryPerDay * tDays).toLocaleString('en')} telemetry rows${history ? ` over ${tDays} days and ${HISTORY_ROLLUP_DAYS} days of roll-ups` : ''}, ~${Math.round(1_000_000 * scale).toLocaleString('en')} alerts on ${database.kind}`,
  );

  const summary = await database.transaction(async (q: Query) => {
    const stepTimer = (label: string) => {
      const t0 = Date.now();
      return (rows: number) => {
        log(`${label}: ${rows.toLocaleString('en')} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        return rows;
      };
    };
    const count = async (sql: string, params: unknown[] = []) =>
      Number((await q<{ n: number | string }>(sql, params))[0]?.n ?? 0);
    /** One bulk `insert …` (without `returning`) as the step `label`: answers and logs how many rows it wrote. */
    const inserted = async (label: string, insert: string, params: unknown[]) => {
      const done = stepTimer(label);
      return done(await count(`with ins as (${insert} returning 1) select count(*) as n from ins`, params));
    };
    if (database.kind === 'postgres') {
      await q('set local synchronous_commit = off');
      await q(`set local maintenance_work_mem = '512MB'`);
    }

    // The demo fleet first, so the demo sign-ins exist; the scale fleet joins the demo agent.
    const demoUsers = await count(`select count(*) as n from users where lower(username) = 'agent'`);
    if (demoUsers === 0) {
      const t0 = Date.now();
      await seedDemo(q, now);
      log(`demo fleet: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }

    // The demo agent owns it all, so the `agent` sign-in sees the whole scale fleet.
    const agentRow = await q<{ agent_id: number }>(
      `select agent_id from users where lower(username) = 'agent' and agent_id is not null
        union all select id from agents order by 1 limit 1`,
    );
    const agentId =
      agentRow[0]?.agent_id ??
      (await q<{ id: number }>(`insert into agents (name) values ('Forecourt Agency') returning id`))[0].id;

    let end = stepTimer('companies');
    const companies = await q<{ id: number }>(
      `insert into companies (agent_id, name)
       select $1, name from unnest($2::text[]) as n(name) returning id`,
      [agentId, COMPANY_NAMES],
    );
    const companyIds = companies.map((c) => c.id);
    end(companyIds.length);
    await q(
      `insert into time_zones (company_id, title, area, tz_title, iana, position)
       select c, z.title, z.area, z.tz_title, z.iana, z.pos
         from unnest($1::int[]) as c
        cross join (values ('London', 'Europe', 'GMT / BST', 'Europe/London', 0),
                           ('New York', 'America', 'Eastern Time', 'America/New_York', 1),
                           ('Dubai', 'Asia', 'Gulf Standard Time', 'Asia/Dubai', 2)) as z(title, area, tz_title, iana, pos)`,
      [companyIds],
    );

    end = stepTimer('sites');
    const sites = await count(
      `with s as (
         insert into sites (company_id, agent_id, title, number, city, lat, lng, timezone, created_at)
         select ($2::int[])[1 + (g - 1) % cardinality($2::int[])], $1,
                town || ' ' || road, 'L' || lpad(g::text, 6, '0'), town,
                round((50.2 + 7.6 * ${u('g * 17 + 1')})::numeric, 5)::float8,
                round((-5.2 + 6.9 * ${u('g * 19 + 2')})::numeric, 5)::float8,
                'Europe/London', $6::timestamptz - interval '800 days'
           from generate_series(1, $3::int) g
          cross join lateral (select ($4::text[])[1 + floor(${u('g * 23 + 3')} * cardinality($4::text[]))::int] as town,
                                     ($5::text[])[1 + floor(${u('g * 29 + 4')} * cardinality($5::text[]))::int] as road) n
         returning 1)
       select count(*) as n from s`,
      [agentId, companyIds, nSites, TOWNS, ROADS, now],
    );
    end(sites);
    const siteRange = (
      await q<{ lo: number; hi: number }>(
        `select min(id) as lo, max(id) as hi from sites where company_id = any($1::int[])`,
        [companyIds],
      )
    )[0];

    end = stepTimer('terminals');
    const terminals = await count(
      `with t as (
         insert into terminals (site_id, company_id, agent_id, terminal_no, card_acceptor_name, lat, lng, connectivity,
                                connectivity_changed_at, last_seen_at, pump_controller, created_at)
         select s.id, s.company_id, s.agent_id,
                'L' || lpad(((s.id - $1) * ${TERMINALS_PER_SITE} + k)::text, 7, '0'),
                s.title || '/' || s.city || ' GB',
                s.lat + 0.0004 * (k - 2), s.lng + 0.0003 * (k - 2),
                case when ${u('s.id * 8 + k + 7')} < 0.03 then 'off' else 'on' end,
                $2::timestamptz - (${u('s.id * 8 + k + 8')} * 72) * interval '1 hour',
                $2::timestamptz - (${u('s.id * 8 + k + 9')} * 60) * interval '1 second',
                k = 1, -- a site's first terminal takes control of its pumps (repositories/pump-carrier.ts)
                -- Installed over the last two years; 1 in 100 inside the last 25 days (reports count a terminal's
                -- availability from its creation).
                $2::timestamptz - case when ${u('s.id * 8 + k + 10')} < 0.01 then ${u('s.id * 8 + k + 11')} * 25
                                       else 60 + 700 * ${u('s.id * 8 + k + 11')} end * interval '1 day'
           from sites s cross join generate_series(1, ${TERMINALS_PER_SITE}) k
          where s.id between $1 and $3
          order by s.id, k
         returning 1)
       select count(*) as n from t`,
      [siteRange.lo, now, siteRange.hi],
    );
    end(terminals);
    const termRange = (
      await q<{ lo: number; hi: number }>(
        `select min(id) as lo, max(id) as hi from terminals where site_id between $1 and $2`,
        [siteRange.lo, siteRange.hi],
      )
    )[0];
    // Offline terminals went silent when they changed state.
    await q(
      `update terminals set last_seen_at = connectivity_changed_at
        where id between $1 and $2 and connectivity = 'off'`,
      [termRange.lo, termRange.hi],
    );

    end = stepTimer('pumps');
    const pumps = await count(
      `with p as (
         insert into pumps (site_id, terminal_id, pump_no, status, last_synapse_status)
         select t.site_id, t.id, n, st, st
           from (select s.id as site_id, ${carrierSql('s.id')} as id from sites s where s.id between $1 and $2) t
          cross join generate_series(1, ${PUMPS_PER_SITE}) n
          cross join lateral (select case when ${u('t.id * 10 + n')} < 0.8 then 1 else 0 end as st) x
          where t.id is not null
          order by t.site_id, n
         returning 1)
       select count(*) as n from p`,
      [siteRange.lo, siteRange.hi],
    );
    end(pumps);

    // Secondary indexes are dropped during the bulk load and rebuilt after: one sorted build instead of
    // millions of random B-tree inserts (5x faster at full scale). Rolled back with everything on failure.
    const indexes = await dropIndexes(q, BULK_TABLES);

    await ensureHistoryPartitions(
      q,
      history ? new Date(now.getTime() - HISTORY_ROLLUP_DAYS * 86_400_000) : tSince,
      now,
    );

    // Telemetry: one statement per day, every terminal, in time order.
    let telemetry = 0;
    const tv = telemetryValues(
      't.id',
      `d * ${telemetryPerDay} + k`,
      `${telemetryPerDay * tDays}`,
      `extract(hour from x.at)`,
    );
    for (let d = 0; d < tDays; d++) {
      end = stepTimer(`telemetry day ${d + 1}/${tDays}`);
      const n = await count(
        `with ins as (
           insert into telemetry (terminal_id, site_id, at, battery_life, flash_left, temperature_main_board,
                                  temperature_inside_cabinet, humidity_inside_cabinet)
           select t.id, t.site_id, x.at, ${tv.battery}, ${tv.flash}, ${tv.board}, ${tv.cabinet}, ${tv.humidity}
             from terminals t
            cross join generate_series(0, ${telemetryPerDay - 1}) k
            cross join (select ${d}::int as d) dd
            cross join lateral (select $1::timestamptz
                                       + ((d * 86400 + k * ${step}) + (t.id % ${Math.max(1, Math.floor(step))})) * interval '1 second' as at) x
            where t.id between $2 and $3
            order by x.at, t.id
           returning 1)
         select count(*) as n from ins`,
        [tSince, termRange.lo, termRange.hi],
      );
      telemetry += end(n);
    }

    // Each terminal row carries its latest reading (what the dashboards read): the last point generated above.
    const lastPoint = telemetryPerDay * tDays - 1;
    const lv = telemetryValues(
      't.id',
      `${lastPoint}`,
      `${telemetryPerDay * tDays}`,
      'extract(hour from x.at)',
    );
    await q(
      `update terminals t
          set battery_life = ${lv.battery}, flash_left = ${lv.flash}, temperature_main_board = ${lv.board},
              temperature_inside_cabinet = ${lv.cabinet}, humidity_inside_cabinet = ${lv.humidity}, telemetry_at = x.at
         from (select id, $1::timestamptz + ((${tDays - 1} * 86400 + ${telemetryPerDay - 1} * ${step})
                      + (id % ${Math.max(1, Math.floor(step))})) * interval '1 second' as at
                 from terminals where id between $2 and $3) x
        where t.id = x.id`,
      [tSince, termRange.lo, termRange.hi],
    );

    // Alerts: per terminal and day a few, weighted by event type; text "Event name: detail".
    const alertTypes: number[] = [];
    const alertTexts: string[] = [];
    for (const [type, weight] of ALERT_WEIGHTS) {
      const texts = eventTexts(type);
      for (let w = 0; w < weight; w++) {
        alertTypes.push(type);
        alertTexts.push(texts[w % texts.length]);
      }
    }
    // Offline history for the availability reports (docs/reports.md): over the last OFFLINE_DAYS, each terminal has
    // OFFLINE_SLOTS slots, half of them holding one outage that starts in the slot's first 80% and lasts one minute
    // to a day (most a few minutes, a long tail), so a terminal's outages never overlap. Cleared ones only (the open
    // ones are those of the terminals offline now, below); outages under their acknowledgement delay clear
    // unacknowledged. A terminal offline now has no outage after it went silent.
    const agentUser = (
      await q<{ id: number }>(`select id from users where lower(username) = 'agent' order by id limit 1`)
    )[0];
    const offlineSince = new Date(now.getTime() - OFFLINE_DAYS * 86_400_000);
    const slotS = (OFFLINE_DAYS * 86_400) / OFFLINE_SLOTS;
    /** Past outages that started in [lo, hi), as rows for `insertAlerts` ($2..$3 the terminals, `nowP` now). */
    const outages = (lo: string, hi: string, nowP = '$8') => `
             select t.id, t.site_id, t.company_id, t.agent_id, 3, 'Terminal offline: no heartbeat received', o.s,
                    o.c, case when o.a < o.c then o.a end
               from terminals t cross join generate_series(0, ${OFFLINE_SLOTS - 1}) k
              cross join lateral (
                select st + (60 + 86340 * power(${u('t.id * 100 + k + 502')}, 6)) * interval '1 second' as c,
                       st + (30 + 3570 * power(${u('t.id * 100 + k + 503')}, 2)) * interval '1 second' as a,
                       st as s
                  from (select '${offlineSince.toISOString()}'::timestamptz
                               + (k * ${slotS} + ${u('t.id * 100 + k + 501')} * ${slotS * 0.8}) * interval '1 second' as st) x) o
              where t.id between $2 and $3 and ${u('t.id * 100 + k + 500')} < 0.5
                and o.s >= ${lo} and o.s < ${hi} and o.s >= t.created_at and o.c <= ${nowP}::timestamptz
                and (t.connectivity = 'on' or o.c < t.connectivity_changed_at)`;
    /** Inserts the alerts of `rows` (terminal, site, company, agent, type, text, at, cleared, acknowledged). */
    const insertAlerts = (rows: string, nowP = '$8') => `
         with ins as (
           insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at, created_at,
                               severity, state, cleared_at, acknowledged_at, acknowledged_by, acknowledged_by_id)
           select terminal_id, site_id, company_id, agent_id, event_type, text, at, at, ${SEVERITY_OF_TYPE},
                  case when cleared is null then 'active' else 'cleared' end, cleared, acked,
                  case when acked is not null then 'agent' end, case when acked is not null then ${agentUser?.id ?? 'null'}::int end
             from (${rows}) a (terminal_id, site_id, company_id, agent_id, event_type, text, at, cleared, acked)
            where at <= ${nowP}::timestamptz
            order by at
           returning 1)
         select count(*) as n from ins`;
    let alerts = 0;
    end = stepTimer(`offline history before day 1`);
    alerts += end(
      await count(
        insertAlerts(outages(`'${offlineSince.toISOString()}'::timestamptz`, '$1::timestamptz', '$4'), '$4'),
        [since, termRange.lo, termRange.hi, now],
      ),
    );
    for (let d = 0; d < DAYS; d++) {
      end = stepTimer(`alerts day ${d + 1}/${DAYS}`);
      // Terminals that are offline now raised a "Terminal offline" alert when they went silent; half of those
      // alerts were acknowledged within the hour.
      const offline = `union all
             select t.id, t.site_id, t.company_id, t.agent_id, 3, 'Terminal offline: no heartbeat received',
                    t.connectivity_changed_at, null::timestamptz,
                    case when ${u('t.id * 100 + 509')} < 0.5
                          and t.connectivity_changed_at + interval '1 hour' <= $8::timestamptz
                         then t.connectivity_changed_at + (60 + 3540 * ${u('t.id * 100 + 510')}) * interval '1 second' end
               from terminals t
              where t.id between $2 and $3 and t.connectivity = 'off'
                and t.connectivity_changed_at >= $1::timestamptz + $6 * interval '1 day'
                and t.connectivity_changed_at < $1::timestamptz + ($6 + 1) * interval '1 day'
             union all ${outages("$1::timestamptz + $6 * interval '1 day'", "$1::timestamptz + ($6 + 1) * interval '1 day'")}`;
      // The other alerts: cleared an hour after they started when older than two days; 4 in 10 acknowledged
      // before that.
      const n = await count(
        insertAlerts(`
             select terminal_id, site_id, company_id, agent_id, event_type, text, at, cleared,
                    case when ${u('terminal_id * 1000 + $6 * 10 + k + 88')} < 0.4
                          and at + ack <= coalesce(cleared, $8::timestamptz) then at + ack end
               from (
             select t.id as terminal_id, t.site_id, t.company_id, t.agent_id, k,
                    ($4::int[])[1 + floor(${u('t.id * 1000 + $6 * 10 + k + 77')} * cardinality($4::int[]))::int] as event_type,
                    ($5::text[])[1 + floor(${u('t.id * 1000 + $6 * 10 + k + 77')} * cardinality($5::text[]))::int] as text,
                    x.at,
                    case when x.at < $8::timestamptz - interval '2 days' then x.at + interval '1 hour' end as cleared,
                    (30 + 3000 * power(${u('t.id * 1000 + $6 * 10 + k + 66')}, 2)) * interval '1 second' as ack
               from terminals t cross join generate_series(1, ${alertSlots}) k
              cross join lateral (
                select $1::timestamptz + ($6 * 86400 + ${u('t.id * 1000 + $6 * 10 + k + 99')} * 86400) * interval '1 second' as at) x
              where t.id between $2 and $3 and ${u('t.id * 1000 + $6 * 10 + k + 55')} < $7) r
             ${offline}`),
        [since, termRange.lo, termRange.hi, alertTypes, alertTexts, d, alertKeep, now],
      );
      alerts += end(n);
    }

    // Maintenance windows the availability reports subtract: a weekly night window (Sunday 02:00 local, two hours)
    // at 1 site in 20 since two months, one company's weekly Wednesday 01:00 hour, and a one-off four-hour window
    // at 1 site in 30 sometime in the last 30 days.
    await inserted(
      'maintenance windows',
      `insert into maintenance_windows (scope_kind, scope_id, tags, agent_id, company_id, site_id, starts_at, ends_at,
                                        weekdays, start_local, duration_min, reason, created_by, created_by_id,
                                        created_at)
       select 'site', s.id, '{}'::text[], s.agent_id, s.company_id, s.id, $3::timestamptz - interval '60 days',
              $3::timestamptz + interval '300 days', '{7}'::smallint[], '02:00', 120, 'Weekly forecourt service',
              'agent', $4::int, $3::timestamptz - interval '61 days'
         from sites s where s.id between $1 and $2 and ${u('s.id * 7 + 601')} < 0.05
       union all
       select 'company', c, '{}'::text[], $5::int, c, null, $3::timestamptz - interval '90 days',
              $3::timestamptz + interval '275 days', '{3}'::smallint[], '01:00', 60, 'Weekly payment host upgrade',
              'agent', $4::int, $3::timestamptz - interval '91 days'
         from unnest($6::int[]) with ordinality u(c, i) where i = 1
       union all
       select 'site', s.id, '{}'::text[], s.agent_id, s.company_id, s.id, w.s, w.s + interval '4 hours', null, null,
              null, 'Tank inspection', 'agent', $4::int, w.s - interval '7 days'
         from sites s
        cross join lateral (select $3::timestamptz - (1 + 28 * ${u('s.id * 7 + 603')}) * interval '1 day' as s) w
        where s.id between $1 and $2 and ${u('s.id * 7 + 602')} < 0.033`,
      [siteRange.lo, siteRange.hi, now, agentUser?.id ?? null, agentId, companyIds],
    );

    const shocks = await inserted(
      'shocks',
      `insert into shocks (terminal_id, site_id, company_id, agent_id, reading, created_at)
       select t.id, t.site_id, t.company_id, t.agent_id,
              round((0.5 + 12 * power(${u('t.id * 10 + k + 301')}, 3))::numeric, 2)::float8,
              $1::timestamptz + ${u('t.id * 10 + k + 302')} * ${DAYS * 86400} * interval '1 second' as at
         from terminals t cross join generate_series(1, 3) k
        where t.id between $2 and $3 and ${u('t.id * 10 + k + 303')} < 0.85
        order by at`,
      [since, termRange.lo, termRange.hi],
    );

    end = stepTimer('pump status entries');
    const codes = [...PUMP_STATUS_CODES];
    const codeTexts = codes.map(pumpStatusText);
    const pumpStatusEntries = end(
      await count(
        `with ins as (
           insert into pump_status_entries (pump_id, site_id, terminal_id, reported_status, code, text, created_at)
           select p.id, p.site_id, p.terminal_id,
                  case when k = 10 then p.last_synapse_status else (${u('p.id * 16 + k + 401')} < 0.7)::int end,
                  case when k = 10 or ${u('p.id * 16 + k + 402')} < 0.85 then ${PUMP_STATUS_NORMAL}
                       else ($4::int[])[2 + floor(${u('p.id * 16 + k + 403')} * (cardinality($4::int[]) - 1))::int] end as code,
                  '', $1::timestamptz + ((k - 1) * 0.1 + 0.1 * ${u('p.id * 16 + k + 404')}) * ${DAYS * 86400} * interval '1 second' as at
             from pumps p cross join generate_series(1, 10) k
            where p.terminal_id between $2 and $3
            order by at
           returning id, code)
         select count(*) as n from ins`,
        [since, termRange.lo, termRange.hi, codes],
      ),
    );
    await q(
      `update pump_status_entries e set text = c.text
         from unnest($1::int[], $2::text[]) as c(code, text)
        where e.code = c.code and e.text = '' and e.terminal_id between $3 and $4`,
      [codes, codeTexts, termRange.lo, termRange.hi],
    );

    // Transactions: the last 48 hours, about three an hour per terminal; a few zero-value and under one litre.
    const transactions = await inserted(
      'transactions',
      `insert into transactions (terminal_id, site_id, at, volume_l, amount)
       select t.id, t.site_id, x.at, v.vol, case when ${u('t.id * 1000 + h * 3 + k + 503')} < 0.03 then 0 else round((v.vol * 1.52)::numeric, 2) end
         from terminals t cross join generate_series(0, 47) h cross join generate_series(1, 3) k
        cross join lateral (select $1::timestamptz - interval '48 hours'
                                   + (h * 3600 + ${u('t.id * 1000 + h * 3 + k + 501')} * 3600) * interval '1 second' as at) x
        cross join lateral (select round((case when ${u('t.id * 1000 + h * 3 + k + 502')} < 0.05
                                                then 0.2 + 0.7 * ${u('t.id * 1000 + h * 3 + k + 504')}
                                                else 5 + 60 * ${u('t.id * 1000 + h * 3 + k + 505')} end)::numeric, 3) as vol) v
        where t.id between $2 and $3
        order by x.at`,
      [now, termRange.lo, termRange.hi],
    );

    {
      const done = stepTimer('sales roll-up (no_sales baseline)');
      done(await rollUpSalesHistory(q, now, termRange));
    }

    const connectivityEvents = await inserted(
      'connectivity events',
      `insert into connectivity_events (terminal_id, site_id, company_id, agent_id, status, at)
       select terminal_id, site_id, company_id, agent_id, status, at from (
         select t.id as terminal_id, t.site_id, t.company_id, t.agent_id, e.status,
                $1::timestamptz + (${u('t.id * 10 + k + 601')} * ${(DAYS - 4) * 86400} + e.offset_s) * interval '1 second' as at
           from terminals t cross join generate_series(1, 2) k
          cross join (values ('off', 0), ('on', 1800)) as e(status, offset_s)
          where t.id between $2 and $3 and ${u('t.id * 10 + k + 602')} < 0.6
         union all
         select t.id, t.site_id, t.company_id, t.agent_id, t.connectivity, t.connectivity_changed_at
           from terminals t where t.id between $2 and $3 and t.connectivity = 'off'
       ) c order by at`,
      [since, termRange.lo, termRange.hi],
    );

    // Command history: a reboot for one terminal in ten, pump switches at one site in five; all completed.
    end = stepTimer('commands');
    const commands = end(
      await count(
        `with ins as (
           insert into commands (kind, terminal_id, site_id, company_id, agent_id, pump_id, pump_no, reboot_type, state,
                                 requested_by_name, created_at, updated_at, sent_at, completed_at, expires_at)
           select kind, terminal_id, site_id, company_id, agent_id, pump_id, pump_no, reboot_type, state,
                  'Alex Agent', at, at + interval '20 seconds', at + interval '2 seconds', at + interval '20 seconds',
                  at + interval '10 minutes'
             from (
               select 'reboot' as kind, t.id as terminal_id, t.site_id, t.company_id, t.agent_id, null::int as pump_id,
                      null::int as pump_no,
                      case when ${u('t.id + 701')} < 0.7 then 'software' else 'full' end as reboot_type,
                      case when ${u('t.id + 702')} < 0.93 then 'confirmed' else 'failed' end as state,
                      $1::timestamptz + ${u('t.id + 703')} * ${DAYS * 86400} * interval '1 second' as at
                 from terminals t where t.id between $2 and $3 and ${u('t.id + 704')} < 0.1
               union all
               select case when p.status = 1 then 'pump_on' else 'pump_off' end, p.terminal_id, p.site_id, t.company_id,
                      t.agent_id, p.id, p.pump_no, null, 'confirmed',
                      $1::timestamptz + ${u('p.id + 705')} * ${DAYS * 86400} * interval '1 second'
                 from pumps p join terminals t on t.id = p.terminal_id
                where p.terminal_id between $2 and $3 and ${u('p.site_id + 706')} < 0.2
             ) c order by at
           returning id, state, created_at, sent_at, completed_at)
         , ev as (
           insert into command_events (command_id, state, at)
           select id, s.state, s.at from ins
            cross join lateral (values ('queued', ins.created_at), ('sent', ins.sent_at), (ins.state, ins.completed_at)) as s(state, at)
            order by id, s.at
           returning 1)
         select (select count(*) from ins) as n, (select count(*) from ev) as events`,
        [since, termRange.lo, termRange.hi],
      ),
    );

    end = stepTimer(`rebuild ${indexes.length} indexes`);
    // A partitioned table's index reads "ON ONLY <table>": built like that it would cover no partition.
    for (const index of indexes) await q(index.indexdef.replace(' ON ONLY ', ' ON '));
    end(indexes.length);

    if (history) {
      // The raw days are rolled up the way the leader does (db/telemetry-history.ts), a day at a time; the months
      // before them get roll-ups of their own, from the same curves, as if their raw days had been dropped.
      const closed = new Date(Math.floor((now.getTime() - ROLLUP_GRACE_MS) / 3_600_000) * 3_600_000);
      end = stepTimer(`roll-ups of ${tDays} raw days`);
      let rolled = 0;
      for (let d = 0; d <= tDays; d++) {
        const from = new Date(tSince.getTime() + d * 86_400_000);
        const to = new Date(Math.min(from.getTime() + 86_400_000, closed.getTime()));
        if (to > from) rolled += await rollUpHours(q, from, to);
      }
      end(rolled);
      await q(
        `insert into rollup_state (key, rolled_until) values ('telemetry', $1)
         on conflict (key) do update set rolled_until = excluded.rolled_until`,
        [closed],
      );
      const oldest = new Date(
        Math.floor((now.getTime() - HISTORY_ROLLUP_DAYS * 86_400_000) / 3_600_000) * 3_600_000,
      );
      const hours = Math.floor((tSince.getTime() - oldest.getTime()) / 3_600_000);
      const hv = telemetryValues('t.id', `${hours} - h`, `${hours}`, 'extract(hour from x.hour)');
      let older = 0;
      for (let h0 = 0; h0 < hours; h0 += 24 * 30) {
        end = stepTimer(`older roll-ups ${Math.round(h0 / 24)}/${Math.round(hours / 24)} days`);
        const n = await count(
          `with ins as (
             insert into telemetry_hourly (terminal_id, hour,
               battery_life_n, battery_life_sum, battery_life_min, battery_life_max,
               flash_left_n, flash_left_sum, flash_left_min, flash_left_max,
               temperature_main_board_n, temperature_main_board_sum, temperature_main_board_min, temperature_main_board_max,
               temperature_inside_cabinet_n, temperature_inside_cabinet_sum, temperature_inside_cabinet_min, temperature_inside_cabinet_max,
               humidity_inside_cabinet_n, humidity_inside_cabinet_sum, humidity_inside_cabinet_min, humidity_inside_cabinet_max)
             select t.id, x.hour,
                    12, 12 * v.b, v.b - 0.2, v.b + 0.2,
                    12, 12 * v.f, v.f, v.f,
                    12, 12 * v.m, v.m - 1, v.m + 1,
                    12, 12 * v.c, v.c - 0.5, v.c + 0.5,
                    12, 12 * v.hu, v.hu - 2, v.hu + 2
               from terminals t
              cross join generate_series($4::int, least($4::int + ${24 * 30}, ${hours}) - 1) h
              cross join lateral (select $1::timestamptz + h * interval '1 hour' as hour) x
              cross join lateral (select ${hv.battery} as b, ${hv.flash} as f, ${hv.board} as m,
                                         ${hv.cabinet} as c, ${hv.humidity} as hu) v
              where t.id between $2 and $3
              order by x.hour, t.id
             returning 1)
           select count(*) as n from ins`,
          [oldest, termRange.lo, termRange.hi, h0],
        );
        older += end(n);
      }
      log(`roll-ups: ${(rolled + older).toLocaleString('en')} terminal-hours`);
      end = stepTimer('cluster closed roll-up months');
      end((await clusterClosedRollupMonths(q, new Date(now.getTime() - 86_400_000), 1000)).length);
    }

    await q(
      'insert into meta (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value',
      [LARGE_MARKER, JSON.stringify({ scale, history, at: now.toISOString() })],
    );
    return {
      scale,
      companies: companyIds.length,
      sites,
      terminals,
      pumps,
      telemetry,
      alerts,
      shocks,
      pumpStatusEntries,
      transactions,
      connectivityEvents,
      commands,
    };
  });

  const t0 = Date.now();
  for (const table of ['sites', 'terminals', 'pumps', ...BULK_TABLES, 'telemetry_hourly']) {
    await database.query(`analyze ${table}`);
  }
  log(`analyze: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const seconds = (Date.now() - started) / 1000;
  log(`done in ${seconds.toFixed(1)} s`);
  return { ...summary, seconds };
}
