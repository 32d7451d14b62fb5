import { spawnSync } from 'node:child_process';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { EVENT_TYPES } from '@forecourt/contract/events';
import { dateFormat } from '@forecourt/contract/formatters';
import { createRandom } from '@forecourt/contract/random';
import {
  type AlertsReportRow,
  AlertsReportRowSchema,
  type AvailabilityReport,
  AvailabilityReportSchema,
  AvailabilityRowSchema,
  availabilityOf,
  localDate,
  nextBoundary,
  periodEndingBy,
  ReportScheduleSchema,
} from '@forecourt/contract/reports';
import { parseCsv } from '@forecourt/test-support/csv';
import { startSmtpServer } from '@forecourt/test-support/smtp';
import { waitFor } from '@forecourt/test-support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FleetSession, openFleetSession } from './fleet-fixture.ts';
import { postgresUnavailable } from './helper.ts';

const S = 1000;
const H = 3600 * S;
const D = 24 * H;
const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors.join(' ');

// The brute force: every instant truncated to the second, then each elementary segment between two boundaries is
// tested on its own (is it offline? covered by a window?), with a window's coverage decided per instant the way
// maintenance_covers decides it. Nothing here reuses the report's SQL.

const sec = (v: Date | string | number | null) => (v === null ? null : Math.floor(new Date(v).getTime() / S));

/** The wall clock of `tz` at instant `atS`: year, month (1-12), day, hour (0-23), minute, second. */
function localParts(atS: number, tz: string) {
  return Object.fromEntries(
    dateFormat('en-GB', 'parts', tz)
      .formatToParts(new Date(atS * S))
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
}
/** Seconds east of UTC of `tz` at instant `atS`. */
function offsetS(tz: string, atS: number): number {
  const p = localParts(atS, tz);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) / S - atS;
}
/** A local day number (days since 1970-01-01 on the wall calendar) and its ISO weekday. */
function localDay(atS: number, tz: string) {
  const p = localParts(atS, tz);
  const day = Date.UTC(p.year!, p.month! - 1, p.day!) / D;
  return day;
}
const isoWeekday = (day: number) => ((new Date(day * D).getUTCDay() + 6) % 7) + 1;
/** The instant of local wall time `day` + `hhmm` in `tz`. */
function wallToInstant(day: number, hhmm: string, tz: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  const wall = day * 86_400 + h! * 3600 + m! * 60;
  let t = wall - offsetS(tz, wall);
  t = wall - offsetS(tz, t);
  return t;
}

interface TermRow {
  id: number;
  terminal_no: string;
  site_id: number;
  site_title: string;
  tz: string;
  tags: string[];
  agent_id: number;
  company_id: number;
  created_at: string;
  decommissioned_at: string | null;
}
interface AlertRow {
  terminal_id: number;
  site_id: number;
  company_id: number;
  agent_id: number;
  event_type: number;
  silenced: boolean;
  started_at: string;
  cleared_at: string | null;
  acknowledged_at: string | null;
}
interface WindowRow {
  scope_kind: string;
  scope_id: number;
  tags: string[];
  starts_at: string;
  ends_at: string;
  weekdays: number[] | null;
  start_local: string | null;
  duration_min: number | null;
}

function reaches(w: WindowRow, t: TermRow) {
  if (!w.tags.every((tag) => t.tags.includes(tag))) return false;
  if (w.scope_kind === 'agent') return t.agent_id === w.scope_id;
  if (w.scope_kind === 'company') return t.company_id === w.scope_id;
  if (w.scope_kind === 'site') return t.site_id === w.scope_id;
  return t.id === w.scope_id;
}

/** Whether window `w` covers instant `a` (seconds) at a site in `tz`. */
function covers(w: WindowRow, tz: string, a: number): boolean {
  if (a < sec(w.starts_at)! || a >= sec(w.ends_at)!) return false;
  if (!w.weekdays) return true;
  const today = localDay(a, tz);
  for (let back = 0; back <= Math.floor((w.duration_min! + 1439) / 1440); back++) {
    const day = today - back;
    if (!w.weekdays.map(Number).includes(isoWeekday(day))) continue;
    const s = wallToInstant(day, w.start_local!, tz);
    if (a >= s && a < s + w.duration_min! * 60) return true;
  }
  return false;
}

/** Every instant where a window's coverage may change inside [lo, hi). */
function windowEdges(w: WindowRow, tz: string, lo: number, hi: number): number[] {
  const edges = [sec(w.starts_at)!, sec(w.ends_at)!];
  if (w.weekdays) {
    const lookback = Math.floor((w.duration_min! + 1439) / 1440) + 1;
    for (let day = localDay(lo, tz) - lookback; day <= localDay(hi, tz) + 1; day++) {
      const s = wallToInstant(day, w.start_local!, tz);
      edges.push(s, s + w.duration_min! * 60);
    }
  }
  return edges.filter((e) => e > lo && e < hi);
}

interface Sums {
  period_s: number;
  excluded_s: number;
  downtime_s: number;
  incidents: number;
  ack: number[];
  clr: number[];
}
const emptySums = (): Sums => ({ period_s: 0, excluded_s: 0, downtime_s: 0, incidents: 0, ack: [], clr: [] });
const mean = (list: number[]) =>
  list.length ? Math.round(list.reduce((a, b) => a + b, 0) / list.length) : null;
const shown = (s: Sums) => ({
  period_s: s.period_s,
  excluded_s: s.excluded_s,
  downtime_s: s.downtime_s,
  availability: availabilityOf(s.period_s, s.excluded_s, s.downtime_s),
  incidents: s.incidents,
  mtta_s: mean(s.ack),
  mttr_s: mean(s.clr),
});

interface History {
  terminals: TermRow[];
  alerts: AlertRow[];
  windows: WindowRow[];
}

function bruteAvailability(
  h: History,
  scope: { kind: 'agent' | 'company' | 'site'; id: number },
  fromMs: number,
  toMs: number,
  nowMs: number,
  groupBy: 'site' | 'terminal',
) {
  const col = scope.kind === 'agent' ? 'agent_id' : scope.kind === 'company' ? 'company_id' : 'site_id';
  const groups = new Map<number, { name: string; site_id: number; sums: Sums }>();
  const total = emptySums();
  for (const t of h.terminals) {
    if (t[col] !== scope.id) continue;
    const ps = Math.max(sec(fromMs)!, sec(t.created_at)!);
    const pe = Math.min(sec(toMs)!, sec(t.decommissioned_at) ?? Number.POSITIVE_INFINITY, sec(nowMs)!);
    if (pe <= ps) continue;
    const offline = h.alerts
      .filter((a) => a.terminal_id === t.id && a.event_type === 3)
      .map((a) => ({ a, s: sec(a.started_at)!, e: sec(a.cleared_at) ?? pe }));
    const windows = h.windows.filter((w) => reaches(w, t));
    const points = new Set<number>([ps, pe]);
    for (const o of offline) for (const p of [o.s, o.e]) if (p > ps && p < pe) points.add(p);
    for (const w of windows) for (const p of windowEdges(w, t.tz, ps, pe)) points.add(p);
    const sorted = [...points].sort((x, y) => x - y);
    const sums = emptySums();
    sums.period_s = pe - ps;
    for (let i = 0; i + 1 < sorted.length; i++) {
      const a = sorted[i]!;
      const len = sorted[i + 1]! - a;
      const covered = windows.some((w) => covers(w, t.tz, a));
      const down = offline.some((o) => a >= o.s && a < o.e);
      if (covered) sums.excluded_s += len;
      else if (down) sums.downtime_s += len;
    }
    for (const o of offline) {
      if (o.s < ps || o.s >= pe) continue;
      sums.incidents++;
      if (o.a.acknowledged_at) sums.ack.push(sec(o.a.acknowledged_at)! - o.s);
      if (o.a.cleared_at) sums.clr.push(sec(o.a.cleared_at)! - o.s);
    }
    const key = groupBy === 'site' ? t.site_id : t.id;
    const g = groups.get(key) ?? {
      name: groupBy === 'site' ? t.site_title : t.terminal_no,
      site_id: t.site_id,
      sums: emptySums(),
    };
    groups.set(key, g);
    for (const target of [g.sums, total]) {
      target.period_s += sums.period_s;
      target.excluded_s += sums.excluded_s;
      target.downtime_s += sums.downtime_s;
      target.incidents += sums.incidents;
      target.ack.push(...sums.ack);
      target.clr.push(...sums.clr);
    }
  }
  return {
    rows: new Map(
      [...groups].map(([id, g]) => [id, { id, name: g.name, site_id: g.site_id, ...shown(g.sums) }]),
    ),
    total: { id: null, name: 'Total', site_id: null, ...shown(total) },
  };
}

function bruteAlerts(h: History, scope: { kind: string; id: number }, fromMs: number, toMs: number) {
  const col = scope.kind === 'agent' ? 'agent_id' : scope.kind === 'company' ? 'company_id' : 'site_id';
  const byType = new Map<number, AlertRow[]>();
  for (const a of h.alerts) {
    const s = sec(a.started_at)!;
    if (a[col as 'agent_id'] !== scope.id || s < sec(fromMs)! || s >= sec(toMs)!) continue;
    byType.set(a.event_type, [...(byType.get(a.event_type) ?? []), a]);
  }
  return [...byType.keys()]
    .sort((x, y) => x - y)
    .map((type): AlertsReportRow => {
      const list = byType.get(type)!;
      const ttr = list
        .filter((a) => a.cleared_at)
        .map((a) => sec(a.cleared_at)! - sec(a.started_at)!)
        .sort((x, y) => x - y);
      return {
        event_type: type,
        name: EVENT_TYPES[type]?.name ?? `Event ${type}`,
        severity: EVENT_TYPES[type]?.severity ?? 'minor',
        count: list.length,
        silenced: list.filter((a) => a.silenced).length,
        acknowledged: list.filter((a) => a.acknowledged_at).length,
        cleared: ttr.length,
        mtta_s: mean(
          list.filter((a) => a.acknowledged_at).map((a) => sec(a.acknowledged_at)! - sec(a.started_at)!),
        ),
        mttr_s: mean(ttr),
        p90_ttr_s: ttr.length ? ttr[Math.ceil(0.9 * ttr.length) - 1]! : null,
      };
    });
}

describe.skipIf(postgresUnavailable)('availability and service reports (docs/reports.md)', () => {
  let { t, f, agent, company, site, agentId, companyId } = {} as FleetSession;
  /** The synthetic site (Asia/Kolkata) and its terminals. */
  let synth: { siteId: number; title: string; terminals: number[] };
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  const get = (url: string, token = agent) => t.as(token, { method: 'GET', url });
  const history = async (): Promise<History> => ({
    terminals: await t.database.query<TermRow>(
      `select t.id, t.terminal_no, t.site_id, s.title as site_title, s.timezone as tz, t.tags, t.agent_id,
              t.company_id, t.created_at, t.decommissioned_at
         from terminals t join sites s on s.id = t.site_id`,
    ),
    alerts: await t.database.query<AlertRow>(
      `select terminal_id, site_id, company_id, agent_id, event_type, silenced, started_at, cleared_at,
              acknowledged_at from alerts`,
    ),
    windows: await t.database.query<WindowRow>(
      `select scope_kind, scope_id, tags, starts_at, ends_at, weekdays, start_local, duration_min
         from maintenance_windows`,
    ),
  });

  beforeAll(async () => {
    smtp = await startSmtpServer();
    ({ t, f, agent, company, site, agentId, companyId } = await openFleetSession({ SMTP_URL: smtp.url }));

    // A synthetic site of the company user's company, in a zone 5:30 east of UTC, whose name a spreadsheet would
    // run as a formula: terminals born 18 days ago, one decommissioned 3 days ago; overlapping, open and
    // window-covered outages; a one-off window, a weekly one past midnight and a tag-targeted one.
    const now = Date.now();
    const ago = (ms: number, extra = 0) => new Date(now - ms + extra).toISOString();
    const [s] = await t.database.query<{ id: number; title: string }>(
      `insert into sites (company_id, agent_id, title, number, timezone)
       values ($1, $2, '=Synthetic Kolkata', 'SYN-1', 'Asia/Kolkata') returning id, title`,
      [companyId, agentId],
    );
    const terminals: number[] = [];
    for (const [i, tags, decommissioned] of [
      [1, ['kiosk'], null],
      [2, [], null],
      [3, ['kiosk'], ago(3 * D, 417)],
    ] as const) {
      const [row] = await t.database.query<{ id: number }>(
        `insert into terminals (site_id, company_id, agent_id, terminal_no, card_acceptor_name, tags, created_at,
                                decommissioned_at, connectivity)
         values ($1, $2, $3, $4, 'Synthetic', $5::text[], $6, $7, 'on') returning id`,
        [s!.id, companyId, agentId, `SYN-${i}`, tags, ago(18 * D, 250), decommissioned],
      );
      terminals.push(row!.id);
    }
    synth = { siteId: s!.id, title: s!.title, terminals };
    const [a, b, c] = terminals as [number, number, number];
    const alert = (
      terminal: number,
      eventType: number,
      start: string,
      cleared: string | null,
      acked: string | null = null,
    ) =>
      t.database.query(
        `insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at, created_at,
                             severity, state, cleared_at, acknowledged_at)
         values ($1, $2, $3, $4, $5, 'Terminal offline: no heartbeat received', $6, $6, 'critical', $7, $8, $9)`,
        [
          terminal,
          s!.id,
          companyId,
          agentId,
          eventType,
          start,
          cleared ? 'cleared' : 'active',
          cleared,
          acked,
        ],
      );
    // Overlapping outages on one terminal, one acknowledged.
    await alert(a, 3, ago(10 * D, 123), ago(10 * D - 5 * H, 900), ago(10 * D - 20 * 60 * S, 10));
    await alert(a, 3, ago(10 * D - 2 * H, 555), ago(10 * D - 7 * H, 1));
    // One from before the terminal existed, one still open.
    await alert(b, 3, ago(19 * D), ago(17 * D, 640));
    await alert(b, 3, ago(2 * D - 30 * S, 999), null);
    // One on the terminal decommissioned later, open past its end.
    await alert(c, 3, ago(4 * D, 321), null, ago(4 * D - H));
    await alert(c, 1, ago(6 * D, 10), ago(6 * D - H), ago(6 * D - 30 * 60 * S));
    await alert(a, 1, ago(6 * D, 20), ago(6 * D - 3 * H));
    // Outages under windows: a one-off over part of terminal a's outage, a weekly window crossing midnight (local
    // 22:30 for 5 hours, every day) and a tag-targeted one.
    await alert(a, 3, ago(8 * D, 77), ago(8 * D - 10 * H, 3));
    await alert(b, 3, ago(5 * D, 44), ago(5 * D - 30 * H, 7));
    const win = (
      scopeKind: string,
      scopeId: number,
      tags: string[],
      from: string,
      to: string,
      weekly?: string,
    ) =>
      t.database.query(
        `insert into maintenance_windows (scope_kind, scope_id, tags, agent_id, company_id, site_id, starts_at,
                                          ends_at, weekdays, start_local, duration_min, created_by)
         values ($1, $2, $3::text[], $4, $5, $6, $7, $8, $9::smallint[], $10, $11, 'test')`,
        [
          scopeKind,
          scopeId,
          tags,
          agentId,
          companyId,
          s!.id,
          from,
          to,
          weekly ? [1, 2, 3, 4, 5, 6, 7] : null,
          weekly ?? null,
          weekly ? 300 : null,
        ],
      );
    await win('terminal', a, [], ago(8 * D - 3 * H, 400), ago(8 * D - 5 * H, 900));
    await win('site', s!.id, [], ago(6 * D, 5), ago(4 * D), '22:30');
    await win('site', s!.id, ['kiosk'], ago(10 * D - 3 * H), ago(10 * D - 4 * H));
    await win('site', s!.id, ['no-such-tag'], ago(12 * D), ago(1 * D));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const Availability = AvailabilityReportSchema;
  async function report(url: string, token = agent): Promise<AvailabilityReport> {
    const res = await get(url, token);
    expect(res.statusCode, res.body).toBe(200);
    return Availability.parse(res.json());
  }

  it('equals a brute-force computation from the alert log, second for second, for random periods', async () => {
    const h = await history();
    const rnd = createRandom(2711);
    const now = Date.now();
    const scopes = [
      { kind: 'agent' as const, id: agentId },
      { kind: 'company' as const, id: companyId },
      { kind: 'site' as const, id: synth.siteId },
      { kind: 'site' as const, id: f.siteId },
    ];
    for (let i = 0; i < 10; i++) {
      const from = now - rnd.between(0.5 * D, 20 * D) + rnd.int(0, 999);
      const to = Math.min(now - 2 * S, from + rnd.between(H, 15 * D));
      const scope = scopes[i % scopes.length]!;
      for (const groupBy of ['site', 'terminal'] as const) {
        const q = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&group_by=${groupBy}`;
        const got = await report(`/api/reports/${scope.kind}/${scope.id}/availability/?${q}`);
        const want = bruteAvailability(h, scope, from, to, now, groupBy);
        expect(got.from).toBe(new Date(from).toISOString());
        expect(got.total, `${scope.kind} ${q}`).toEqual(want.total);
        expect(new Map(got.rows.map((r) => [r.id, r])), `${scope.kind} ${q}`).toEqual(want.rows);
        const order = got.rows.map((r) => r.availability);
        expect(order).toEqual([...order].sort((x, y) => x - y));
      }
    }
  });

  it('the synthetic site: overlaps count once, windows are excluded, an open outage runs to the end', async () => {
    const h = await history();
    const now = Date.now();
    const from = now - 20 * D;
    const to = now - 60 * S;
    const q = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&group_by=terminal`;
    const got = await report(`/api/reports/site/${synth.siteId}/availability/?${q}`);
    const want = bruteAvailability(h, { kind: 'site', id: synth.siteId }, from, to, now, 'terminal');
    expect(got.total).toEqual(want.total);
    expect(got.rows.map((r) => r.id).sort()).toEqual([...synth.terminals].sort());
    const [a, b, c] = synth.terminals.map((id) => got.rows.find((r) => r.id === id)!);
    // Something of every kind is there: excluded time, downtime, a decommissioned terminal's shorter life.
    expect(a!.excluded_s).toBeGreaterThan(0);
    expect(a!.downtime_s).toBeGreaterThan(5 * 3600);
    expect(a!.mtta_s).toBeGreaterThanOrEqual(20 * 60 - 1);
    expect(a!.mtta_s).toBeLessThanOrEqual(20 * 60);
    expect(b!.downtime_s).toBeGreaterThan(0);
    expect(c!.period_s).toBeLessThan(a!.period_s - 2 * 86_400);
    expect(got.total.availability).toBeLessThan(1);
    // Default period: the last 30 days, up to now; the total of sites is the total of terminals.
    const bySite = await report(`/api/reports/site/${synth.siteId}/availability/`);
    expect(Date.parse(bySite.to) - Date.parse(bySite.from)).toBe(30 * D);
    expect(bySite.rows).toHaveLength(1);
    expect(bySite.rows[0]).toMatchObject({ id: synth.siteId, name: synth.title, site_id: synth.siteId });
    // A period with no terminal alive: nothing to measure.
    const before = await report(
      `/api/reports/site/${synth.siteId}/availability/?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z`,
    );
    expect(before.rows).toEqual([]);
    expect(before.total).toMatchObject({
      period_s: 0,
      availability: 1,
      incidents: 0,
      mtta_s: null,
      mttr_s: null,
    });
  });

  it('the alert report: one row per event type, equal to the brute force', async () => {
    const h = await history();
    const now = Date.now();
    for (const [scope, token] of [
      [{ kind: 'agent', id: agentId }, agent],
      [{ kind: 'company', id: companyId }, company],
      [{ kind: 'site', id: synth.siteId }, company],
      [{ kind: 'site', id: f.siteId }, site],
    ] as const) {
      const from = now - 21 * D + 517;
      const to = now - 5 * S;
      const res = await get(
        `/api/reports/${scope.kind}/${scope.id}/alerts/?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`,
        token,
      );
      expect(res.statusCode, res.body).toBe(200);
      const rows = z.array(AlertsReportRowSchema).parse(res.json());
      expect(rows).toEqual(bruteAlerts(h, scope, from, to));
    }
    const synthRows = z
      .array(AlertsReportRowSchema)
      .parse((await get(`/api/reports/site/${synth.siteId}/alerts/`)).json());
    expect(synthRows.find((r) => r.event_type === 3)).toMatchObject({
      name: 'Terminal offline',
      severity: 'critical',
    });
  });

  it('scope as reads: 403 outside, 404 unknown; 400 naming a bad from, to, group_by or format', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/reports/agent/${agentId}/availability/` })).statusCode,
    ).toBe(401);
    expect((await get(`/api/reports/agent/${agentId}/availability/`, company)).statusCode).toBe(403);
    expect((await get(`/api/reports/company/${companyId}/alerts/`, site)).statusCode).toBe(403);
    expect((await get(`/api/reports/site/${f.outsider.siteId}/availability/`)).statusCode).toBe(403);
    expect((await get(`/api/reports/site/${f.companySite.siteId}/availability/`, site)).statusCode).toBe(403);
    expect((await get(`/api/reports/site/${f.companySite.siteId}/availability/`, company)).statusCode).toBe(
      200,
    );
    expect((await get('/api/reports/site/999999/availability/')).statusCode).toBe(404);
    expect((await get('/api/reports/site/abc/alerts/')).statusCode).toBe(404);
    expect((await get(`/api/reports/terminal/${f.plainTerminalId}/availability/`)).statusCode).toBe(404);
    const base = `/api/reports/site/${f.siteId}/availability/`;
    for (const [query, field] of [
      ['from=yesterday', 'from'],
      ['to=2026-13-40', 'to'],
      ['from=2026-11-10T00:00:00Z&to=2026-11-01T00:00:00Z', 'to'],
      ['group_by=company', 'group_by'],
      ['format=xlsx', 'format'],
    ]) {
      const res = await get(`${base}?${query}`, site);
      expect(res.statusCode, query).toBe(400);
      expect(errorsOf(res)).toMatch(new RegExp(`^${field}\\b`));
    }
    const res = await get(
      `/api/reports/site/${f.siteId}/alerts/?from=2026-11-10T00:00:00Z&to=2026-11-01T00:00:00Z`,
    );
    expect(res.statusCode).toBe(400);
    expect(errorsOf(res)).toMatch(/^to must be after from/);
  });

  it('format=csv: the rows and the total, cells neutralised; format=pdf: a PDF naming every site', async () => {
    // One period for both: a period ending now ends a second later for a request a second later.
    const period = `from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}&to=${new Date().toISOString()}`;
    const csvRes = await get(`/api/reports/company/${companyId}/availability/?format=csv&${period}`, company);
    expect(csvRes.statusCode).toBe(200);
    expect(csvRes.headers['content-type']).toMatch(/^text\/csv/);
    expect(csvRes.headers['content-disposition']).toMatch(
      /attachment; filename="availability-company-\d+-.*\.csv"/,
    );
    const json = await report(`/api/reports/company/${companyId}/availability/?${period}`, company);
    const table = parseCsv(csvRes.body);
    // The columns of the JSON rows, in their order.
    expect(table[0]).toEqual(Object.keys(AvailabilityRowSchema.shape));
    expect(table).toHaveLength(json.rows.length + 2);
    expect(table.map((r) => r[1])).toContain(`'${synth.title}`);
    expect(table.at(-1)!.slice(0, 3)).toEqual(['', 'Total', '']);
    expect(Number(table.at(-1)![3])).toBe(json.total.period_s);

    const alertsCsv = await get(`/api/reports/site/${f.siteId}/alerts/?format=csv`, site);
    expect(alertsCsv.statusCode).toBe(200);
    expect(parseCsv(alertsCsv.body)[0]![0]).toBe('event_type');

    const pdf = await get(`/api/reports/company/${companyId}/availability/?format=pdf`, company);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const bytes = pdf.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain('Availability report');
    for (const row of json.rows) expect(text).toContain(row.name);
    const alertsPdf = await get(`/api/reports/site/${f.siteId}/alerts/?format=pdf`, site);
    expect(alertsPdf.statusCode).toBe(200);
    expect(pdfText(alertsPdf.rawPayload)).toContain('Alert report');
  });

  it('schedules: every role schedules what it reads; the run mails the PDF; a missed run runs once', async () => {
    const url = '/api/reports/schedules/';
    const post = (payload: unknown, token = agent) =>
      t.as(token, { method: 'POST', url, payload: payload as object });
    const body = {
      report: 'availability',
      scope: { kind: 'site', id: f.siteId },
      every: 'week',
      format: 'pdf',
      recipients: ['ops@example.com', 'boss@example.com'],
    };
    // A site's schedule keeps the site's own midnights: Auckland's Monday 00:00 is Sunday 11:00 or 12:00 UTC.
    const zone = 'Pacific/Auckland';
    await t.database.query('update sites set timezone = $2 where id = $1', [f.siteId, zone]);
    const created = await post(body, site);
    expect(created.statusCode, created.body).toBe(201);
    const schedule = ReportScheduleSchema.parse(created.json());
    expect(schedule).toMatchObject({ ...body, created_by: 'site', last_run_at: null });
    expect(Date.parse(schedule.next_run_at)).toBe(nextBoundary('week', new Date(), zone).getTime());
    expect(new Date(schedule.next_run_at).getUTCDay()).toBe(0);
    expect([11, 12]).toContain(new Date(schedule.next_run_at).getUTCHours());
    // A company's keeps the zone most of its sites use (here still Europe/London); an agent's keeps UTC.
    const companyWeekly = await post(
      { ...body, every: 'month', scope: { kind: 'company', id: companyId } },
      company,
    );
    expect(companyWeekly.statusCode, companyWeekly.body).toBe(201);
    const [{ tz: companyZone }] = await t.database.query<{ tz: string }>(
      `select timezone as tz from sites where company_id = $1 and decommissioned_at is null
        group by timezone order by count(*) desc, min(id) limit 1`,
      [companyId],
    );
    expect(companyZone).not.toBe(zone);
    expect(Date.parse(ReportScheduleSchema.parse(companyWeekly.json()).next_run_at)).toBe(
      nextBoundary('month', new Date(), companyZone).getTime(),
    );
    const agentMonthly = await post(
      { ...body, every: 'month', scope: { kind: 'agent', id: agentId } },
      agent,
    );
    expect(agentMonthly.statusCode, agentMonthly.body).toBe(201);
    const agentNext = new Date(ReportScheduleSchema.parse(agentMonthly.json()).next_run_at);
    expect([agentNext.getUTCDate(), agentNext.getUTCHours()]).toEqual([1, 0]);
    for (const other of [companyWeekly, agentMonthly])
      await t.as(agent, { method: 'DELETE', url: `${url}${(other.json() as { id: number }).id}/` });

    expect((await post({ ...body, scope: { kind: 'company', id: companyId } }, site)).statusCode).toBe(403);
    expect((await post({ ...body, scope: { kind: 'site', id: 999999 } }, site)).statusCode).toBe(400);
    for (const [patch, field] of [
      [{ report: 'uptime' }, 'report'],
      [{ every: 'day' }, 'every'],
      [{ format: 'xlsx' }, 'format'],
      [{ recipients: ['not an address'] }, 'recipients'],
      [{ recipients: [] }, 'recipients'],
    ] as const) {
      const res = await post({ ...body, ...patch }, site);
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(errorsOf(res)).toMatch(new RegExp(field));
    }

    const list = z.array(ReportScheduleSchema).parse((await get(url, site)).json());
    expect(list.map((s) => s.id)).toEqual([schedule.id]);
    expect(
      z
        .array(ReportScheduleSchema)
        .parse((await get(url, agent)).json())
        .map((s) => s.id),
    ).toContain(schedule.id);
    expect(z.array(ReportScheduleSchema).parse((await get(url, company)).json())).toEqual([]);
    expect((await t.as(company, { method: 'DELETE', url: `${url}${schedule.id}/` })).statusCode).toBe(403);
    expect((await t.as(company, { method: 'POST', url: `${url}${schedule.id}/run/` })).statusCode).toBe(403);
    expect((await t.as(site, { method: 'POST', url: `${url}999999/run/` })).statusCode).toBe(404);

    // Run now: 202, and the mail arrives with the PDF attached.
    const run = await t.as(site, { method: 'POST', url: `${url}${schedule.id}/run/` });
    expect(run.statusCode, run.body).toBe(202);
    const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes('ops@example.com')), 20_000);
    expect(mail.to).toEqual(['ops@example.com', 'boss@example.com']);
    expect(mail.text).toMatch(/Subject: \[Forecourt\] Availability report/);
    // The week just ended in Auckland, named by its local dates.
    const week = periodEndingBy('week', new Date(), zone);
    expect(mail.text.replace(/\r?\n[ \t]+/g, ' ')).toContain(
      `${localDate(week.from, zone)} to ${localDate(new Date(week.to.getTime() - 1), zone)}`,
    );
    expect(mail.text).toMatch(/Content-Type: application\/pdf;\s+name="?availability-site-\d+-/);
    const pdf = attachment(mail.text);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const siteTitle = (
      await t.database.query<{ title: string }>('select title from sites where id = $1', [f.siteId])
    )[0]!.title;
    expect(pdfText(pdf)).toContain(siteTitle);

    // The run is over once it is recorded (after the mail went).
    for (let i = 0; ; i++) {
      const [row] = await t.database.query<{ done: boolean }>(
        'select last_run_at is not null and not run_requested as done from report_schedules where id = $1',
        [schedule.id],
      );
      if (row?.done) break;
      if (i > 400) throw new Error('the run was not recorded');
      await new Promise((r) => setTimeout(r, 25));
    }
    // A run missed while no node was up runs once, for the period just ended, and the next is the next boundary.
    await t.database.query(
      `update report_schedules set next_run_at = now() - interval '15 days' where id = $1`,
      [schedule.id],
    );
    const before = smtp.mails.length;
    const now = new Date();
    expect(await t.app.reports.tick(now)).toBe(1);
    expect(smtp.mails.length).toBe(before + 1);
    expect(await t.app.reports.tick(now)).toBe(0);
    const after = z.array(ReportScheduleSchema).parse((await get(url, site)).json())[0]!;
    expect(Date.parse(after.next_run_at)).toBe(nextBoundary('week', now, zone).getTime());
    expect(after.last_run_at).not.toBeNull();

    const deleted = await t.as(site, { method: 'DELETE', url: `${url}${schedule.id}/` });
    expect(deleted.statusCode).toBe(200);
    expect(z.array(ReportScheduleSchema).parse((await get(url, site)).json())).toEqual([]);
    expect((await t.as(site, { method: 'DELETE', url: `${url}${schedule.id}/` })).statusCode).toBe(404);
    const audit = await t.database.query<{ action: string }>(
      `select action from audit_log where entity = 'report_schedule' and entity_id = $1 order by id`,
      [schedule.id],
    );
    expect(audit.map((a) => a.action)).toEqual(['create', 'run', 'delete']);
  });
});

/** The text of a PDF, as poppler's pdftotext reads it. */
function pdfText(pdf: Buffer): string {
  const out = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf });
  if (out.status !== 0) throw new Error(`pdftotext failed: ${out.stderr.toString()}`);
  return out.stdout.toString('utf8');
}

/** The first base64 attachment of a raw MIME message. */
function attachment(raw: string): Buffer {
  const m = raw.match(
    /Content-Disposition: attachment[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/,
  );
  if (!m) throw new Error('no attachment in the mail');
  return Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
}
