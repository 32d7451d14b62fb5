import { eventTexts, severityOf } from '@forecourt/contract/events';
import { PUMP_STATUS_NORMAL, pumpStatusText } from '@forecourt/contract/pumps';
import { createRandom, type Random, seedOf } from '@forecourt/contract/random';
import { carrierOf } from '../../repositories/pump-carrier.ts';
import { rollUpSalesHistory } from '../../repositories/sales-rollup.ts';
import { hashPassword } from '../../services/passwords.ts';
import type { QueryFn } from '../client.ts';
import { ensureHistoryPartitions } from '../telemetry-history.ts';
import { bulkInsert, type Cell } from './bulk.ts';
import {
  AGENT_ZONES,
  ALERT_WEIGHTS,
  COMPANY_ZONES,
  DEMO_AGENT,
  DEMO_COMPANIES,
  DEMO_PASSWORD,
  DEMO_SOFTWARE,
  DEMO_USERS,
} from './demo-fleet.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const HISTORY_DAYS = 14;

export interface DemoSite {
  id: number;
  companyId: number;
  title: string;
  number: string;
  city: string;
  lat: number;
  lng: number;
}
export interface DemoTerminal {
  id: number;
  siteId: number;
  companyId: number;
  terminalNo: string;
  cardAcceptorName: string;
  lat: number;
  lng: number;
  pumpController: boolean;
  /** When it went offline for good (the few terminals left 'off'), else null. */
  offlineSince: number | null;
}
export interface DemoPump {
  id: number;
  siteId: number;
  terminalId: number;
  pumpNo: number;
  initialStatus: 0 | 1;
}

/** The fixed part of the fleet (sites, terminals, pumps): identical on every seed. */
export function buildFleet() {
  const rnd = createRandom(seedOf('fleet'));
  const sites: DemoSite[] = [];
  const terminals: DemoTerminal[] = [];
  const pumps: DemoPump[] = [];
  for (const company of DEMO_COMPANIES) {
    company.towns.forEach((town, i) => {
      const id = sites.length + 1;
      const site: DemoSite = {
        id,
        companyId: company.id,
        title: `${town.city} ${town.road}`,
        number: `${company.id}${String(i + 1).padStart(3, '0')}`,
        city: town.city,
        lat: town.lat + rnd.between(-0.01, 0.01),
        lng: town.lng + rnd.between(-0.01, 0.01),
      };
      site.lat = Math.round(site.lat * 1e6) / 1e6;
      site.lng = Math.round(site.lng * 1e6) / 1e6;
      sites.push(site);
      const count = rnd.int(2, 4);
      const here: DemoTerminal[] = [];
      for (let k = 0; k < count; k++) {
        const tid = terminals.length + 1;
        here.push({
          id: tid,
          siteId: id,
          companyId: company.id,
          terminalNo: `${site.number}${String(k + 1).padStart(4, '0')}`,
          cardAcceptorName: `${site.title}/${site.city}`,
          lat: Math.round((site.lat + rnd.between(-0.00025, 0.00025)) * 1e7) / 1e7,
          lng: Math.round((site.lng + rnd.between(-0.0004, 0.0004)) * 1e7) / 1e7,
          // A site's first terminal takes control of its pumps (repositories/pump-carrier.ts).
          pumpController: k === 0,
          offlineSince: null,
        });
        terminals.push(here[k]);
      }
      const controller = carrierOf(here)!.id;
      const pumpCount = rnd.int(4, 8);
      for (let p = 1; p <= pumpCount; p++) {
        pumps.push({
          id: pumps.length + 1,
          siteId: id,
          terminalId: controller,
          pumpNo: p,
          initialStatus: rnd.chance(0.8) ? 1 : 0,
        });
      }
    });
  }
  return { sites, terminals, pumps };
}

/**
 * The demo's tags and software versions, derived from the terminal alone (no random draw: the rest of the seed stays
 * as it was). Pump controllers are one model, the other terminals another; one terminal in ten is a canary and runs
 * the next version.
 */
export function demoTerminalLabels(term: DemoTerminal): { tags: string[]; version: string } {
  const model = term.pumpController ? 'model-ux300' : 'model-ipp350';
  const canary = term.id % 10 === 1;
  return canary
    ? { tags: [model, 'canary'], version: DEMO_SOFTWARE.next }
    : { tags: [model], version: DEMO_SOFTWARE.current };
}

/** Which terminals are left offline: every terminal of one site (Glasgow), a non-controller at site 1, and a few more. */
function offlineTerminalIds(terminals: DemoTerminal[]): Set<number> {
  const rnd = createRandom(seedOf('offline'));
  const ids = new Set<number>();
  for (const t of terminals) if (t.siteId === 6) ids.add(t.id);
  const site1 = terminals.filter((t) => t.siteId === 1 && !t.pumpController);
  if (site1.length) ids.add(site1[site1.length - 1]!.id);
  const others = terminals.filter((t) => t.siteId !== 1 && t.siteId !== 6);
  while (ids.size < 8) ids.add(rnd.pick(others).id);
  return ids;
}

const HOURLY_CURVE = [
  0.15, 0.1, 0.08, 0.08, 0.1, 0.2, 0.5, 0.9, 1, 0.85, 0.75, 0.8, 0.9, 0.85, 0.8, 0.85, 0.95, 1, 0.85, 0.65,
  0.5, 0.4, 0.3, 0.2,
];

function poisson(rnd: Random, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rnd.next();
  while (p > limit) {
    k++;
    p *= rnd.next();
  }
  return k;
}

const r1 = (v: number) => Math.round(v * 10) / 10;
const r2 = (v: number) => Math.round(v * 100) / 100;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const iso = (ms: number) => new Date(ms).toISOString();

/** Time-sorted rows so ids ascend with time: newest-first by id is newest-first by time. */
function byTime<T extends { t: number }>(rows: T[]): T[] {
  return rows.sort((a, b) => a.t - b.t);
}

export interface DemoSummary {
  anchor: string;
  sites: number;
  terminals: number;
  pumps: number;
  rows: Record<string, number>;
}

type Timed = { t: number; row: Cell[] };

/** What every part of the demo seed works from: the fleet, and the time window of its history. */
interface SeedContext {
  ex: QueryFn;
  nowMs: number;
  /** Now rounded down to the hour: the same anchor gives the same data. */
  anchor: number;
  start: number;
  end: number;
  sites: DemoSite[];
  terminals: DemoTerminal[];
  pumps: DemoPump[];
  siteById: Map<number, DemoSite>;
  termById: Map<number, DemoTerminal>;
}

/** The agent, its companies and their sites. */
async function seedOrganisation(ctx: SeedContext): Promise<void> {
  const { ex, start, sites } = ctx;
  await bulkInsert(
    ex,
    'agents',
    [
      ['id', 'int'],
      ['name', 'text'],
      ['created_at', 'timestamptz'],
    ],
    [[DEMO_AGENT.id, DEMO_AGENT.name, iso(start)]],
  );
  await bulkInsert(
    ex,
    'companies',
    [
      ['id', 'int'],
      ['agent_id', 'int'],
      ['name', 'text'],
      ['created_at', 'timestamptz'],
    ],
    DEMO_COMPANIES.map((c) => [c.id, DEMO_AGENT.id, c.name, iso(start)]),
  );
  await bulkInsert(
    ex,
    'sites',
    [
      ['id', 'int'],
      ['company_id', 'int'],
      ['agent_id', 'int'],
      ['title', 'text'],
      ['number', 'text'],
      ['city', 'text'],
      ['lat', 'float8'],
      ['lng', 'float8'],
      ['timezone', 'text'],
      ['created_at', 'timestamptz'],
    ],
    sites.map((s) => [
      s.id,
      s.companyId,
      DEMO_AGENT.id,
      s.title,
      s.number,
      s.city,
      s.lat,
      s.lng,
      'Europe/London',
      iso(start),
    ]),
  );
}

/** Per terminal: its row with the latest readings, and its connectivity, telemetry, alert and shock history. */
async function seedTerminals(ctx: SeedContext) {
  const { ex, nowMs, anchor, start, end, terminals, siteById } = ctx;
  const offline = offlineTerminalIds(terminals);
  const connRows: { t: number; row: Cell[] }[] = [];
  const telemetryRows: { t: number; row: Cell[] }[] = [];
  const alertRows: { t: number; row: Cell[] }[] = [];
  const shockRows: { t: number; row: Cell[] }[] = [];
  const terminalRows: Cell[][] = [];
  /** Gaps in each terminal's heartbeat: [from, to). */
  const gaps = new Map<number, [number, number][]>();

  for (const term of terminals) {
    const rnd = createRandom(seedOf(`terminal:${term.terminalNo}`));
    const site = siteById.get(term.siteId)!;
    const scope = [term.id, site.id, site.companyId, DEMO_AGENT.id] as const;
    const outages: [number, number][] = [];
    if (rnd.chance(0.35)) {
      const n = rnd.int(1, 3);
      for (let i = 0; i < n; i++) {
        const from = start + rnd.between(0.5, HISTORY_DAYS - 1) * DAY;
        outages.push([from, from + rnd.between(10 * MINUTE, 6 * HOUR)]);
      }
      outages.sort((a, b) => a[0] - b[0]);
    }
    const offAt = offline.has(term.id) ? anchor - rnd.between(1, 30) * HOUR : null;
    term.offlineSince = offAt;
    const termGaps = outages.filter(([from]) => offAt === null || from < offAt);
    if (offAt !== null) termGaps.push([offAt, Number.POSITIVE_INFINITY]);
    gaps.set(term.id, termGaps);
    const silent = (t: number) => termGaps.some(([a, b]) => t >= a && t < b);

    connRows.push({ t: start, row: [...scope, 'on', iso(start)] });
    let lastChange = start;
    for (const [from, to] of termGaps) {
      connRows.push({ t: from, row: [...scope, 'off', iso(from)] });
      // One offline alert per outage, cleared when the terminal reported again (docs/product.md#alert-lifecycle).
      const back = Number.isFinite(to) && to <= end;
      alertRows.push({
        t: from,
        row: [
          ...scope,
          3,
          eventTexts(3)[0]!,
          iso(from),
          iso(from + 5 * MINUTE),
          severityOf(3),
          back ? 'cleared' : 'active',
          back ? iso(to) : null,
        ],
      });
      lastChange = from;
      if (back) {
        connRows.push({ t: to, row: [...scope, 'on', iso(to)] });
        lastChange = to;
      }
    }

    // Telemetry every 15–30 minutes: battery and flash drive drift down, temperatures follow the day.
    const batteryEnd = rnd.weighted<[number, number]>([
      [[92, 100], 4],
      [[76, 90], 3],
      [[52, 75], 3],
      [[8, 48], 2],
      [[1, 4.9], 1],
    ]);
    const finalBattery = rnd.between(batteryEnd[0], batteryEnd[1]);
    const batterySlope = rnd.between(0, Math.min(3, (100 - finalBattery) / HISTORY_DAYS));
    const flashEnd = rnd.weighted<[number, number]>([
      [[91, 99], 2],
      [[75, 90], 4],
      [[50, 75], 3],
      [[10, 49], 1],
      [[2, 4.9], 0.4],
    ]);
    const finalFlash = rnd.between(flashEnd[0], flashEnd[1]);
    const flashSlope = rnd.between(0.02, Math.min(0.4, (100 - finalFlash) / HISTORY_DAYS));
    const boardBase = rnd.between(34, 42);
    const cabinetBase = rnd.between(18, 24);
    const humidityBase = rnd.between(45, 62);
    let latest: Cell[] | null = null;
    let latestAt = 0;
    for (let t = start + rnd.between(0, 20) * MINUTE; t <= end; t += rnd.between(15, 30) * MINUTE) {
      if (silent(t)) continue;
      const daysBefore = (anchor - t) / DAY;
      const hourOfDay = (((t % DAY) + DAY) % DAY) / HOUR;
      const curve = Math.cos((2 * Math.PI * (hourOfDay - 15)) / 24);
      const values: Cell[] = [
        r1(clamp(finalBattery + batterySlope * daysBefore + rnd.gauss() * 0.4, 0.5, 100)),
        r1(clamp(finalFlash + flashSlope * daysBefore + rnd.gauss() * 0.05, 0.5, 100)),
        r1(boardBase + 6 * curve + rnd.gauss() * 0.8),
        r1(cabinetBase + 5 * curve + rnd.gauss() * 0.6),
        r1(clamp(humidityBase - 12 * curve + rnd.gauss() * 2, 5, 98)),
      ];
      telemetryRows.push({ t, row: [term.id, site.id, iso(t), ...values] });
      latest = values;
      latestAt = t;
    }

    // Alerts: a few a day, hardware types well represented. Those of the last day and a half are partly still
    // active; older ones were cleared within hours (their own random stream: the rest of the seed is unchanged).
    const alertRate = rnd.between(1.5, 4);
    const lifecycle = createRandom(seedOf(`alert-state:${term.terminalNo}`));
    for (let t = start - Math.log(1 - rnd.next()) * (DAY / alertRate); t <= end; ) {
      const type = rnd.weighted(ALERT_WEIGHTS);
      const text = rnd.pick(eventTexts(type));
      const active = t > end - 36 * HOUR && (t > end - 3 * HOUR || lifecycle.chance(0.4));
      const clearedAt = active ? null : Math.min(end, t + lifecycle.between(10 * MINUTE, 6 * HOUR));
      alertRows.push({
        t,
        row: [
          ...scope,
          type,
          text,
          iso(t),
          iso(t + rnd.int(1, 20) * 1000),
          severityOf(type),
          active ? 'active' : 'cleared',
          clearedAt === null ? null : iso(clearedAt),
        ],
      });
      t += -Math.log(1 - rnd.next()) * (DAY / alertRate);
    }

    // Shocks.
    const shockRate = rnd.between(0.2, 1.2);
    for (let t = start - Math.log(1 - rnd.next()) * (DAY / shockRate); t <= end; ) {
      const reading = rnd.chance(0.1) ? rnd.between(4, 12) : rnd.between(0.3, 4);
      shockRows.push({ t, row: [...scope, r2(reading), iso(t)] });
      t += -Math.log(1 - rnd.next()) * (DAY / shockRate);
    }

    const isOn = offAt === null;
    terminalRows.push([
      term.id,
      site.id,
      site.companyId,
      DEMO_AGENT.id,
      term.terminalNo,
      term.cardAcceptorName,
      term.lat,
      term.lng,
      isOn ? 'on' : 'off',
      iso(lastChange),
      iso(isOn ? Math.max(latestAt, nowMs - MINUTE) : offAt),
      ...(latest ?? [null, null, null, null, null]),
      latest ? iso(latestAt) : null,
      term.pumpController,
      iso(start),
    ]);
  }

  await bulkInsert(
    ex,
    'terminals',
    [
      ['id', 'int'],
      ['site_id', 'int'],
      ['company_id', 'int'],
      ['agent_id', 'int'],
      ['terminal_no', 'text'],
      ['card_acceptor_name', 'text'],
      ['lat', 'float8'],
      ['lng', 'float8'],
      ['connectivity', 'text'],
      ['connectivity_changed_at', 'timestamptz'],
      ['last_seen_at', 'timestamptz'],
      ['battery_life', 'float8'],
      ['flash_left', 'float8'],
      ['temperature_main_board', 'float8'],
      ['temperature_inside_cabinet', 'float8'],
      ['humidity_inside_cabinet', 'float8'],
      ['telemetry_at', 'timestamptz'],
      ['pump_controller', 'bool'],
      ['created_at', 'timestamptz'],
    ],
    terminalRows,
  );
  // Tags and software versions (docs/targets.md): a model per terminal, and a few canaries a version ahead.
  const tagged = terminals.map((term) => demoTerminalLabels(term));
  await ex(
    `update terminals t set tags = string_to_array(u.tags, ';'), software_version = u.version
       from unnest($1::int[], $2::text[], $3::text[]) as u(id, tags, version) where t.id = u.id`,
    [terminals.map((term) => term.id), tagged.map((l) => l.tags.join(';')), tagged.map((l) => l.version)],
  );
  return { connRows, telemetryRows, alertRows, shockRows, gaps };
}

/** Pumps with their commands and status entries, then a few reboots per site (one requester stream for both). */
async function seedPumpsAndCommands(ctx: SeedContext, gaps: Map<number, [number, number][]>) {
  const { ex, start, end, sites, terminals, pumps, siteById, termById } = ctx;
  const userRnd = createRandom(seedOf('requesters'));
  const requester = (siteId: number): [number, string] => {
    const site = siteById.get(siteId)!;
    if (siteId === 1 && userRnd.chance(0.3)) return [3, DEMO_USERS[2].name];
    if (site.companyId === 1 && userRnd.chance(0.3)) return [2, DEMO_USERS[1].name];
    return [1, DEMO_USERS[0].name];
  };
  const commandRows: { t: number; row: Cell[]; events: [string, number, string | null][] }[] = [];
  const statusRows: { t: number; row: Cell[] }[] = [];
  const pumpRows: Cell[][] = [];
  const outcome = (rnd: Random) =>
    rnd.weighted<'confirmed' | 'failed' | 'timed_out'>([
      ['confirmed', 80],
      ['failed', 12],
      ['timed_out', 8],
    ]);
  const addCommand = (
    rnd: Random,
    t: number,
    kind: 'pump_on' | 'pump_off' | 'reboot',
    term: DemoTerminal,
    pump: DemoPump | null,
    rebootType: string | null,
  ) => {
    const state = outcome(rnd);
    const [userId, userName] = requester(term.siteId);
    const sent = t + rnd.int(1, 5) * 1000;
    const done = state === 'timed_out' ? t + 60_000 : sent + rnd.int(2, kind === 'reboot' ? 30 : 5) * 1000;
    const detail =
      state === 'failed'
        ? kind === 'reboot'
          ? 'Device reported failure: reboot aborted'
          : 'Device reported failure: pump controller did not respond'
        : state === 'timed_out'
          ? 'No acknowledgement from the device'
          : null;
    commandRows.push({
      t,
      row: [
        kind,
        term.id,
        term.siteId,
        term.companyId,
        DEMO_AGENT.id,
        pump?.id ?? null,
        pump?.pumpNo ?? null,
        rebootType,
        state,
        userId,
        userName,
        detail,
        iso(t),
        iso(done),
        iso(sent),
        iso(done),
        iso(t + 60_000),
      ],
      events: [
        ['queued', t, null],
        ['sent', sent, null],
        [state, done, detail],
      ],
    });
    return state;
  };

  for (const pump of pumps) {
    const rnd = createRandom(seedOf(`pump:${pump.siteId}:${pump.pumpNo}`));
    const controller = termById.get(pump.terminalId)!;
    const changes: [number, number][] = [];
    let state: number = pump.initialStatus;
    const commandsCount = rnd.int(0, 3);
    const times = Array.from(
      { length: commandsCount },
      () => start + rnd.between(0.2, HISTORY_DAYS - 0.1) * DAY,
    ).sort((a, b) => a - b);
    for (const t of times) {
      if (t > end) continue;
      const kind = state === 1 ? 'pump_off' : 'pump_on';
      if (addCommand(rnd, t, kind, controller, pump, null) === 'confirmed') {
        state = 1 - state;
        changes.push([t + 5_000, state]);
      }
    }
    const stateAt = (t: number) => {
      let s = pump.initialStatus as number;
      for (const [at, v] of changes) if (at <= t) s = v;
      return s;
    };
    const statusRate = rnd.between(3, 6);
    const controllerGaps = gaps.get(pump.terminalId)!;
    for (let t = start - Math.log(1 - rnd.next()) * (DAY / statusRate); t <= end; ) {
      if (controllerGaps.some(([a, b]) => t >= a && t < b)) {
        t += -Math.log(1 - rnd.next()) * (DAY / statusRate);
        continue;
      }
      const code = rnd.weighted<number>([
        [4000, 85],
        [4001, 5],
        [4002, 3],
        [4003, 2],
        [4004, 3],
        [4005, 1],
      ]);
      statusRows.push({
        t,
        row: [pump.id, pump.siteId, pump.terminalId, stateAt(t), code, pumpStatusText(code), iso(t)],
      });
      t += -Math.log(1 - rnd.next()) * (DAY / statusRate);
    }
    for (const [t, v] of changes) {
      statusRows.push({
        t,
        row: [
          pump.id,
          pump.siteId,
          pump.terminalId,
          v,
          PUMP_STATUS_NORMAL,
          pumpStatusText(PUMP_STATUS_NORMAL),
          iso(t),
        ],
      });
    }
    pumpRows.push([
      pump.id,
      pump.siteId,
      pump.terminalId,
      pump.pumpNo,
      state,
      state,
      iso(changes.at(-1)?.[0] ?? start),
    ]);
  }

  for (const site of sites) {
    const rnd = createRandom(seedOf(`reboots:${site.id}`));
    const siteTerminals = terminals.filter((t) => t.siteId === site.id);
    const n = rnd.int(1, 3);
    for (let i = 0; i < n; i++) {
      const term = rnd.pick(siteTerminals);
      const t = start + rnd.between(0.2, HISTORY_DAYS - 0.1) * DAY;
      if (t > end || (term.offlineSince !== null && t > term.offlineSince)) continue;
      addCommand(rnd, t, 'reboot', term, null, rnd.chance(0.7) ? 'software' : 'full');
    }
  }

  await bulkInsert(
    ex,
    'pumps',
    [
      ['id', 'int'],
      ['site_id', 'int'],
      ['terminal_id', 'int'],
      ['pump_no', 'int'],
      ['status', 'smallint'],
      ['last_synapse_status', 'smallint'],
      ['updated_at', 'timestamptz'],
    ],
    pumpRows,
  );
  return { commandRows, statusRows };
}

/** Transactions per site following a daily curve; some zero-amount, some under one litre. */
function transactionRows(ctx: SeedContext, gaps: Map<number, [number, number][]>): Timed[] {
  const { anchor, start, end, sites, terminals } = ctx;
  const txRows: { t: number; row: Cell[] }[] = [];
  for (const site of sites) {
    const rnd = createRandom(seedOf(`transactions:${site.id}`));
    const siteTerminals = terminals.filter((t) => t.siteId === site.id);
    const peak = rnd.between(6, 14);
    const price = rnd.between(1.42, 1.62);
    for (let hourStart = start; hourStart < anchor + HOUR; hourStart += HOUR) {
      const hourOfDay = Math.floor((hourStart % DAY) / HOUR);
      const count = poisson(rnd, peak * HOURLY_CURVE[hourOfDay]!);
      for (let i = 0; i < count; i++) {
        const t = hourStart + rnd.next() * HOUR;
        let term = rnd.pick(siteTerminals);
        const kind = rnd.weighted<'normal' | 'zero' | 'lt1'>([
          ['normal', 91],
          ['zero', 4],
          ['lt1', 5],
        ]);
        const volume =
          kind === 'lt1' ? rnd.between(0.05, 0.99) : clamp(35 + rnd.gauss() * 15 + rnd.between(-5, 5), 2, 95);
        const amount = kind === 'zero' ? 0 : volume * price;
        if (t > end) continue;
        if (gaps.get(term.id)!.some(([a, b]) => t >= a && t < b)) {
          term = siteTerminals.find((x) => !gaps.get(x.id)!.some(([a, b]) => t >= a && t < b)) ?? term;
          if (gaps.get(term.id)!.some(([a, b]) => t >= a && t < b)) continue;
        }
        txRows.push({ t, row: [term.id, site.id, iso(t), Math.round(volume * 1000) / 1000, r2(amount)] });
      }
    }
  }
  return txRows;
}

/** The time-ordered history rows of every terminal, pump and site. */
async function seedHistory(
  ex: QueryFn,
  h: {
    connRows: Timed[];
    alertRows: Timed[];
    shockRows: Timed[];
    telemetryRows: Timed[];
    statusRows: Timed[];
    txRows: Timed[];
  },
): Promise<void> {
  const { connRows, alertRows, shockRows, telemetryRows, statusRows, txRows } = h;
  const scopeCols = [
    ['terminal_id', 'int'],
    ['site_id', 'int'],
    ['company_id', 'int'],
    ['agent_id', 'int'],
  ] as const;
  const rowsOf = (list: { t: number; row: Cell[] }[]) => byTime(list).map((r) => r.row);
  await bulkInsert(
    ex,
    'connectivity_events',
    [...scopeCols, ['status', 'text'], ['at', 'timestamptz']],
    rowsOf(connRows),
  );
  await bulkInsert(
    ex,
    'alerts',
    [
      ...scopeCols,
      ['event_type', 'smallint'],
      ['text', 'text'],
      ['started_at', 'timestamptz'],
      ['created_at', 'timestamptz'],
      ['severity', 'text'],
      ['state', 'text'],
      ['cleared_at', 'timestamptz'],
    ],
    rowsOf(alertRows),
  );
  await bulkInsert(
    ex,
    'shocks',
    [...scopeCols, ['reading', 'float8'], ['created_at', 'timestamptz']],
    rowsOf(shockRows),
  );
  await bulkInsert(
    ex,
    'telemetry',
    [
      ['terminal_id', 'int'],
      ['site_id', 'int'],
      ['at', 'timestamptz'],
      ['battery_life', 'float8'],
      ['flash_left', 'float8'],
      ['temperature_main_board', 'float8'],
      ['temperature_inside_cabinet', 'float8'],
      ['humidity_inside_cabinet', 'float8'],
    ],
    rowsOf(telemetryRows),
  );
  await bulkInsert(
    ex,
    'pump_status_entries',
    [
      ['pump_id', 'int'],
      ['site_id', 'int'],
      ['terminal_id', 'int'],
      ['reported_status', 'smallint'],
      ['code', 'int'],
      ['text', 'text'],
      ['created_at', 'timestamptz'],
    ],
    rowsOf(statusRows),
  );
  await bulkInsert(
    ex,
    'transactions',
    [
      ['terminal_id', 'int'],
      ['site_id', 'int'],
      ['at', 'timestamptz'],
      ['volume_l', 'numeric'],
      ['amount', 'numeric'],
    ],
    rowsOf(txRows),
  );
}

/** Commands (ids in time order) and their state history. */
async function seedCommands(
  ex: QueryFn,
  commandRows: Array<Timed & { events: [string, number, string | null][] }>,
) {
  const sortedCommands = byTime(commandRows);
  await bulkInsert(
    ex,
    'commands',
    [
      ['id', 'bigint'],
      ['kind', 'text'],
      ['terminal_id', 'int'],
      ['site_id', 'int'],
      ['company_id', 'int'],
      ['agent_id', 'int'],
      ['pump_id', 'int'],
      ['pump_no', 'int'],
      ['reboot_type', 'text'],
      ['state', 'text'],
      ['requested_by', 'int'],
      ['requested_by_name', 'text'],
      ['detail', 'text'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
      ['sent_at', 'timestamptz'],
      ['completed_at', 'timestamptz'],
      ['expires_at', 'timestamptz'],
    ],
    sortedCommands.map((c, i) => [i + 1, ...c.row]),
  );
  await bulkInsert(
    ex,
    'command_events',
    [
      ['command_id', 'int'],
      ['state', 'text'],
      ['detail', 'text'],
      ['at', 'timestamptz'],
    ],
    sortedCommands.flatMap((c, i) => c.events.map(([state, t, detail]) => [i + 1, state, detail, iso(t)])),
  );
}

/** Users (password demo1234, argon2id), their links, time zones and a few tickets. */
async function seedUsers(ctx: SeedContext): Promise<void> {
  const { ex, start, anchor } = ctx;
  const hashes = await Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD)));
  await bulkInsert(
    ex,
    'users',
    [
      ['id', 'int'],
      ['username', 'text'],
      ['email', 'text'],
      ['name', 'text'],
      ['password_hash', 'text'],
      ['agent_id', 'int'],
      ['created_at', 'timestamptz'],
    ],
    DEMO_USERS.map((u, i) => [u.id, u.username, u.email, u.name, hashes[i]!, u.agentId, iso(start)]),
  );
  await bulkInsert(
    ex,
    'user_companies',
    [
      ['user_id', 'int'],
      ['company_id', 'int'],
    ],
    [[2, 1]],
  );
  await bulkInsert(
    ex,
    'user_sites',
    [
      ['user_id', 'int'],
      ['site_id', 'int'],
    ],
    [[3, 1]],
  );
  const zoneRows: Cell[][] = [];
  AGENT_ZONES.forEach((z, i) => {
    zoneRows.push([DEMO_AGENT.id, null, z.title, z.area, z.tzTitle, z.iana, i]);
  });
  for (const [companyId, zones] of Object.entries(COMPANY_ZONES)) {
    zones.forEach((z, i) => {
      zoneRows.push([null, Number(companyId), z.title, z.area, z.tzTitle, z.iana, i]);
    });
  }
  await bulkInsert(
    ex,
    'time_zones',
    [
      ['agent_id', 'int'],
      ['company_id', 'int'],
      ['title', 'text'],
      ['area', 'text'],
      ['tz_title', 'text'],
      ['iana', 'text'],
      ['position', 'int'],
    ],
    zoneRows,
  );
  await bulkInsert(
    ex,
    'tickets',
    [
      ['user_id', 'int'],
      ['subject', 'text'],
      ['body', 'text'],
      ['forward_state', 'text'],
      ['created_at', 'timestamptz'],
    ],
    [
      [
        1,
        'Printer keeps jamming at Leeds',
        'Terminal 10010002 reports paper jams several times a day.',
        'stored',
        iso(anchor - 9 * DAY),
      ],
      [
        2,
        'Pump 3 not confirming',
        'Pump 3 at Leeds Kirkstall Road stayed pending after a turn-on.',
        'stored',
        iso(anchor - 4 * DAY),
      ],
      [
        3,
        'New card reader request',
        'Please schedule a contactless reader upgrade for our forecourt.',
        'stored',
        iso(anchor - DAY),
      ],
    ],
  );
}

/** Explicit ids were used: move the sequences past them. */
async function advanceSequences(ex: QueryFn): Promise<void> {
  for (const table of ['agents', 'companies', 'sites', 'terminals', 'pumps', 'users', 'commands']) {
    await ex(
      `select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 0) + 1 from ${table}), false)`,
    );
  }
}

/**
 * Seeds the demo fleet through `ex` (run it inside one transaction). History covers the two weeks before
 * `anchor` (now rounded down to the hour) and runs on to `now`; the same anchor gives the same data.
 */
export async function seedDemo(ex: QueryFn, now: Date = new Date()): Promise<DemoSummary> {
  const nowMs = now.getTime();
  const anchor = Math.floor(nowMs / HOUR) * HOUR;
  const start = anchor - HISTORY_DAYS * DAY;
  const { sites, terminals, pumps } = buildFleet();
  const ctx: SeedContext = {
    ex,
    nowMs,
    anchor,
    start,
    end: Math.min(nowMs, anchor + HOUR),
    sites,
    terminals,
    pumps,
    siteById: new Map(sites.map((s) => [s.id, s])),
    termById: new Map(terminals.map((t) => [t.id, t])),
  };

  await seedOrganisation(ctx);
  const { connRows, telemetryRows, alertRows, shockRows, gaps } = await seedTerminals(ctx);
  const { commandRows, statusRows } = await seedPumpsAndCommands(ctx, gaps);
  const txRows = transactionRows(ctx, gaps);
  await ensureHistoryPartitions(ex, new Date(start), now);
  await seedHistory(ex, { connRows, alertRows, shockRows, telemetryRows, statusRows, txRows });
  // The no_sales baseline learns from the seeded sales like from live ones.
  await rollUpSalesHistory(ex, now);
  await seedCommands(ex, commandRows);
  await seedUsers(ctx);
  await advanceSequences(ex);

  return {
    anchor: iso(anchor),
    sites: sites.length,
    terminals: terminals.length,
    pumps: pumps.length,
    rows: {
      telemetry: telemetryRows.length,
      alerts: alertRows.length,
      shocks: shockRows.length,
      pump_status_entries: statusRows.length,
      transactions: txRows.length,
      connectivity_events: connRows.length,
      commands: commandRows.length,
    },
  };
}
