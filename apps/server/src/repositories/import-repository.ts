import type { ImportResult, ImportRow, ImportRowResult } from '@forecourt/contract/admin';
import type { Database, QueryFn } from '../db/client.ts';
import { type Actor, auditOf } from './admin-repository.ts';
import type { ChangeInput } from './change-repository.ts';
import { num } from './read-scope.ts';
import { type Tx, unitOfWork } from './unit-of-work.ts';

/** One line of the file: its number (the header is 1), the checked values, or what is wrong with it. */
export interface ImportLine {
  row: number;
  data: ImportRow | null;
  errors: string[];
}

interface SiteState {
  id: number | null;
  key: string;
  companyKey: string;
  number: string;
  title: string;
  lat: number | null;
  lng: number | null;
  timezone: string;
  /** Values from the file once a row set them; rows of one site must agree. */
  fromRow: number | null;
  changed: boolean;
  pumps: number | null;
  pumpsRow: number | null;
  livePumpNos: Set<number>;
  /** The terminal that carries the site's pump commands (existing id, or the terminal number of a new one). */
  carrier: number | string | null;
  firstTerminal: string | null;
  before: Record<string, unknown> | null;
}

const lower = (s: string) => s.toLowerCase();
const siteView = (s: SiteState, companyId: number | null) => ({
  id: s.id,
  company_id: companyId,
  title: s.title,
  number: s.number,
  lat: s.lat,
  lng: s.lng,
  timezone: s.timezone,
});

/**
 * The CSV import of docs/product.md#fleet-administration: matches companies by name, sites by number within their
 * company and terminals by number; creates or updates them and adds the missing pumps (numbered 1..pumps). All in
 * one transaction, a handful of set-based statements whatever the file's size; any bad row → nothing written.
 * The live feed gets one 'fleet' change per new company and per site that gained or changed something (a moved
 * terminal names its old place and its new one), in the same transaction.
 */
export function createImportRepository(database: Database) {
  return {
    async run(actor: Actor, lines: ImportLine[], dryRun: boolean): Promise<ImportResult> {
      return unitOfWork(database, async (q) => {
        const plan = await planImport(q, actor, lines);
        const result = summarise(plan.results, dryRun);
        if (dryRun || result.errors > 0) return result;
        await applyPlan(q, actor, plan, result);
        return result;
      });
    },
  };
}
export type ImportRepository = ReturnType<typeof createImportRepository>;

type Plan = Awaited<ReturnType<typeof planImport>>;

async function planImport(q: QueryFn, actor: Actor, lines: ImportLine[]) {
  const valid = lines.filter((l) => l.data !== null).map((l) => l.data!);
  const companies = new Map<string, { id: number | null; name: string }>();
  for (const c of await q<{ id: number; name: string }>(
    'select id, name from companies where agent_id = $1 and decommissioned_at is null',
    [actor.agentId],
  )) {
    companies.set(lower(c.name), { id: num(c.id), name: c.name });
  }
  const sites = new Map<string, SiteState>();
  const companyKeyById = new Map([...companies.entries()].map(([k, c]) => [c.id!, k]));
  const siteRows = await q<{
    id: number;
    company_id: number;
    title: string;
    number: string;
    lat: number | null;
    lng: number | null;
    timezone: string;
    pump_nos: number[] | null;
    carrier: number | null;
  }>(
    `select s.id, s.company_id, s.title, s.number, s.lat, s.lng, s.timezone,
            (select array_agg(p.pump_no) from pumps p where p.site_id = s.id and p.decommissioned_at is null) as pump_nos,
            (select t.id from terminals t where t.site_id = s.id and t.decommissioned_at is null
              order by t.pump_controller desc, t.id limit 1) as carrier
       from sites s where s.agent_id = $1 and s.decommissioned_at is null`,
    [actor.agentId],
  );
  for (const s of siteRows) {
    const companyKey = companyKeyById.get(num(s.company_id));
    if (companyKey === undefined) continue;
    const key = `${companyKey}\u0000${s.number}`;
    const state: SiteState = {
      id: num(s.id),
      key,
      companyKey,
      number: s.number,
      title: s.title,
      lat: s.lat === null ? null : num(s.lat),
      lng: s.lng === null ? null : num(s.lng),
      timezone: s.timezone,
      fromRow: null,
      changed: false,
      pumps: null,
      pumpsRow: null,
      livePumpNos: new Set((s.pump_nos ?? []).map(Number)),
      carrier: s.carrier === null ? null : num(s.carrier),
      firstTerminal: null,
      before: null,
    };
    state.before = siteView(state, num(s.company_id));
    sites.set(key, state);
  }
  const terminals = new Map<
    string,
    { id: number; agent_id: number; site_id: number; carries: number; card_acceptor_name: string }
  >();
  const numbers = [...new Set(valid.map((d) => d.terminal_id))];
  if (numbers.length) {
    const found = await q<{
      id: number;
      agent_id: number;
      site_id: number;
      terminal_no: string;
      card_acceptor_name: string;
    }>(
      `select t.id, t.agent_id, t.site_id, t.terminal_no, t.card_acceptor_name
         from terminals t where t.terminal_no = any($1::text[]) and t.decommissioned_at is null`,
      [numbers],
    );
    // How many live pumps each of them carries: one grouped pass over the pumps, not one count per terminal.
    const carried = new Map<number, number>();
    if (found.length) {
      for (const r of await q<{ terminal_id: number; n: number | string }>(
        `select p.terminal_id, count(*) as n from pumps p
          where p.terminal_id = any($1::int[]) and p.decommissioned_at is null group by p.terminal_id`,
        [found.map((t) => t.id)],
      )) {
        carried.set(num(r.terminal_id), num(r.n));
      }
    }
    for (const t of found) {
      terminals.set(t.terminal_no, {
        id: num(t.id),
        agent_id: num(t.agent_id),
        site_id: num(t.site_id),
        carries: carried.get(num(t.id)) ?? 0,
        card_acceptor_name: t.card_acceptor_name,
      });
    }
  }
  const siteById = new Map([...sites.values()].map((s) => [s.id, s]));

  const results: ImportRowResult[] = [];
  const seenTerminal = new Map<string, number>();
  const newCompanies: string[] = [];
  const newTerminals: Array<{ site: SiteState; number: string; name: string }> = [];
  const movedTerminals: Array<{ id: number; site: SiteState; from: number }> = [];

  for (const line of lines) {
    if (!line.data) {
      results.push({ row: line.row, action: 'error', errors: line.errors });
      continue;
    }
    const d = line.data;
    const errors: string[] = [];
    let changes = false;
    let creates = false;
    const companyKey = lower(d.company);
    if (!companies.has(companyKey)) {
      companies.set(companyKey, { id: null, name: d.company });
      newCompanies.push(companyKey);
      creates = true;
    }
    const siteKey = `${companyKey}\u0000${d.site_number}`;
    let site = sites.get(siteKey);
    if (!site) {
      site = {
        id: null,
        key: siteKey,
        companyKey,
        number: d.site_number,
        title: d.site_title,
        lat: d.lat,
        lng: d.lng,
        timezone: d.timezone,
        fromRow: line.row,
        changed: true,
        pumps: null,
        pumpsRow: null,
        livePumpNos: new Set(),
        carrier: null,
        firstTerminal: null,
        before: null,
      };
      sites.set(siteKey, site);
      creates = true;
    } else if (site.fromRow === null) {
      site.fromRow = line.row;
      if (
        site.title !== d.site_title ||
        site.lat !== d.lat ||
        site.lng !== d.lng ||
        site.timezone !== d.timezone
      ) {
        site.title = d.site_title;
        site.lat = d.lat;
        site.lng = d.lng;
        site.timezone = d.timezone;
        site.changed = true;
      }
      if (site.changed && site.id !== null) changes = true;
    } else {
      for (const [field, mine, theirs] of [
        ['site_title', d.site_title, site.title],
        ['lat', d.lat, site.lat],
        ['lng', d.lng, site.lng],
        ['timezone', d.timezone, site.timezone],
      ] as const) {
        if (mine !== theirs)
          errors.push(`${field} differs from row ${site.fromRow} of the same site (${site.number})`);
      }
      if (site.changed && site.id !== null) changes = true;
    }
    if (site.pumps === null) {
      site.pumps = d.pumps;
      site.pumpsRow = line.row;
    } else if (site.pumps !== d.pumps) {
      errors.push(`pumps differs from row ${site.pumpsRow} of the same site (${site.number})`);
    }

    const earlier = seenTerminal.get(d.terminal_id);
    if (earlier !== undefined) errors.push(`terminal_id ${d.terminal_id} is also on row ${earlier}`);
    else seenTerminal.set(d.terminal_id, line.row);
    const existing = terminals.get(d.terminal_id);
    if (earlier === undefined) {
      if (!existing) {
        newTerminals.push({ site, number: d.terminal_id, name: d.site_title });
        site.firstTerminal ??= d.terminal_id;
        creates = true;
      } else if (existing.agent_id !== actor.agentId) {
        errors.push(`terminal_id ${d.terminal_id} belongs to another fleet`);
      } else if (existing.site_id !== site.id) {
        if (existing.carries > 0) {
          const from = siteById.get(existing.site_id);
          errors.push(
            `terminal_id ${d.terminal_id} carries the pumps of site ${from?.number ?? existing.site_id} and cannot move`,
          );
        } else {
          movedTerminals.push({ id: existing.id, site, from: existing.site_id });
          site.firstTerminal ??= d.terminal_id;
          changes = true;
        }
      } else {
        site.firstTerminal ??= d.terminal_id;
      }
    }
    if (!errors.length && site.pumps !== null && site.pumpsRow === line.row) {
      for (let n = 1; n <= site.pumps; n++) if (!site.livePumpNos.has(n)) changes = true;
    }
    results.push({
      row: line.row,
      action: errors.length ? 'error' : creates ? 'create' : changes ? 'update' : 'unchanged',
      errors,
    });
  }
  return { results, companies, sites, newCompanies, newTerminals, movedTerminals };
}

function summarise(rows: ImportRowResult[], dryRun: boolean): ImportResult {
  const count = (a: ImportRowResult['action']) => rows.filter((r) => r.action === a).length;
  return {
    rows,
    created: count('create'),
    updated: count('update'),
    unchanged: count('unchanged'),
    errors: count('error'),
    dry_run: dryRun,
  };
}

async function applyPlan(q: Tx, actor: Actor, plan: Plan, result: ImportResult) {
  const audit: Array<[string, string, number, unknown, unknown]> = [];
  const changes: ChangeInput[] = [];
  const fleet = (place: Omit<ChangeInput, 'kind' | 'agentId'>) =>
    changes.push({ kind: 'fleet', agentId: actor.agentId, ...place });

  // Companies.
  if (plan.newCompanies.length) {
    const names = plan.newCompanies.map((k) => plan.companies.get(k)!.name);
    const rows = await q<{ id: number; name: string }>(
      `insert into companies (agent_id, name) select $1, n from unnest($2::text[]) with ordinality u(n, o)
       order by o returning id, name`,
      [actor.agentId, names],
    );
    for (const r of rows) {
      plan.companies.get(lower(r.name))!.id = num(r.id);
      audit.push(['create', 'company', num(r.id), null, { id: num(r.id), name: r.name }]);
      fleet({ companyId: num(r.id) });
    }
  }
  const companyId = (key: string) => plan.companies.get(key)!.id!;

  // Sites: new ones, then the changed ones.
  const sites = [...plan.sites.values()];
  const created = sites.filter((s) => s.id === null);
  if (created.length) {
    const rows = await q<{ id: number; company_id: number; number: string }>(
      `insert into sites (company_id, agent_id, title, number, lat, lng, timezone)
       select u.c, $1, u.t, u.n, u.la, u.ln, u.tz
         from unnest($2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::text[]) as u(c, t, n, la, ln, tz)
       returning id, company_id, number`,
      [
        actor.agentId,
        created.map((s) => companyId(s.companyKey)),
        created.map((s) => s.title),
        created.map((s) => s.number),
        created.map((s) => s.lat),
        created.map((s) => s.lng),
        created.map((s) => s.timezone),
      ],
    );
    const byKey = new Map(rows.map((r) => [`${num(r.company_id)}\u0000${r.number}`, num(r.id)]));
    for (const s of created) {
      s.id = byKey.get(`${companyId(s.companyKey)}\u0000${s.number}`)!;
      audit.push(['create', 'site', s.id, null, siteView(s, companyId(s.companyKey))]);
      fleet({ companyId: companyId(s.companyKey), siteId: s.id });
    }
  }
  const updated = sites.filter((s) => s.before !== null && s.changed);
  if (updated.length) {
    await q(
      `update sites s set title = u.t, lat = u.la, lng = u.ln, timezone = u.tz
         from unnest($1::int[], $2::text[], $3::float8[], $4::float8[], $5::text[]) as u(id, t, la, ln, tz)
        where s.id = u.id`,
      [
        updated.map((s) => s.id),
        updated.map((s) => s.title),
        updated.map((s) => s.lat),
        updated.map((s) => s.lng),
        updated.map((s) => s.timezone),
      ],
    );
    for (const s of updated) {
      audit.push(['update', 'site', s.id!, s.before, siteView(s, companyId(s.companyKey))]);
      fleet({ companyId: companyId(s.companyKey), siteId: s.id });
    }
  }

  // Terminals: moves, then new ones (the first terminal of a site without a carrier carries its pumps).
  if (plan.movedTerminals.length) {
    const moved = plan.movedTerminals;
    const siteById = new Map(sites.map((s) => [s.id, s]));
    await q(
      `update terminals t set site_id = u.s, company_id = u.c, pump_controller = false
         from unnest($1::int[], $2::int[], $3::int[]) as u(id, s, c) where t.id = u.id`,
      [moved.map((m) => m.id), moved.map((m) => m.site.id), moved.map((m) => companyId(m.site.companyKey))],
    );
    for (const m of moved) {
      audit.push([
        'update',
        'terminal',
        m.id,
        { id: m.id, site_id: m.from },
        { id: m.id, site_id: m.site.id },
      ]);
      const from = siteById.get(m.from);
      fleet({ companyId: from ? companyId(from.companyKey) : null, siteId: m.from, terminalId: m.id });
      fleet({ companyId: companyId(m.site.companyKey), siteId: m.site.id, terminalId: m.id });
      m.site.carrier ??= m.id;
    }
  }
  if (plan.newTerminals.length) {
    const nt = plan.newTerminals;
    const controller = nt.map((t) => t.site.carrier === null && t.site.firstTerminal === t.number);
    const rows = await q<{
      id: number;
      terminal_no: string;
      site_id: number;
      lat: number | null;
      lng: number | null;
    }>(
      `insert into terminals (site_id, company_id, agent_id, terminal_no, card_acceptor_name, lat, lng, pump_controller)
       select u.s, u.c, $1, u.n, u.name, u.la, u.ln, u.pc
         from unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::boolean[])
              as u(s, c, n, name, la, ln, pc)
       returning id, terminal_no, site_id, lat, lng`,
      [
        actor.agentId,
        nt.map((t) => t.site.id),
        nt.map((t) => companyId(t.site.companyKey)),
        nt.map((t) => t.number),
        nt.map((t) => t.name),
        nt.map((t) => t.site.lat),
        nt.map((t) => t.site.lng),
        controller,
      ],
    );
    const idByNo = new Map(rows.map((r) => [r.terminal_no, num(r.id)]));
    nt.forEach((t, i) => {
      const id = idByNo.get(t.number)!;
      if (controller[i]) t.site.carrier = id;
      // One change per site however many terminals it gained (a 10,000-row file stays one small insert).
      fleet({ companyId: companyId(t.site.companyKey), siteId: t.site.id });
      audit.push([
        'create',
        'terminal',
        id,
        null,
        {
          id,
          site_id: t.site.id,
          terminal_id: t.number,
          card_acceptor_name: t.name,
          lat: t.site.lat,
          lng: t.site.lng,
        },
      ]);
    });
  }

  // Pumps 1..N that a site lacks, carried by its carrier terminal.
  const pumpSite: number[] = [];
  const pumpTerminal: number[] = [];
  const pumpNo: number[] = [];
  for (const s of sites) {
    if (s.pumps === null || s.carrier === null) continue;
    const before = pumpNo.length;
    for (let n = 1; n <= s.pumps; n++) {
      if (s.livePumpNos.has(n)) continue;
      pumpSite.push(s.id!);
      pumpTerminal.push(s.carrier as number);
      pumpNo.push(n);
    }
    if (pumpNo.length > before) fleet({ companyId: companyId(s.companyKey), siteId: s.id });
  }
  if (pumpNo.length) {
    const rows = await q<{ id: number; site_id: number; pump_no: number }>(
      `insert into pumps (site_id, terminal_id, pump_no)
       select * from unnest($1::int[], $2::int[], $3::int[]) returning id, site_id, pump_no`,
      [pumpSite, pumpTerminal, pumpNo],
    );
    for (const r of rows) {
      const pump = { id: num(r.id), site_id: num(r.site_id), pump_no: num(r.pump_no) };
      audit.push(['create', 'pump', pump.id, null, pump]);
    }
  }

  audit.push([
    'import',
    'import',
    0,
    null,
    {
      rows: result.rows.length,
      created: result.created,
      updated: result.updated,
      unchanged: result.unchanged,
    },
  ]);
  await q.audit(
    audit.map(([action, entity, id, before, after]) =>
      auditOf(actor, action, entity, id || null, before, after),
    ),
  );
  await q.changed(changes);
}
