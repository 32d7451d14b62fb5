import type { ImportResult, ImportRow, ImportRowResult } from '@forecourt/contract/admin';
import type { ChangeInput } from '../repositories/change-repository.ts';
import type { Repositories } from '../repositories/index.ts';
import { nullableNum, num } from '../repositories/read-scope.ts';
import { type Actor, auditOf, type Tx } from './actor.ts';

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
  address: string | null;
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

interface TerminalState {
  id: number;
  agent_id: number;
  site_id: number;
  carries: number;
  tags: string[];
}

/** The same tags, whatever their order. */
const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join(';') === [...b].sort().join(';');

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
 * company and terminals by number; creates or updates them and adds the missing pumps (numbered 1..pumps), carried
 * by the site's carrier terminal (repositories/pump-carrier.ts). All in one unit of work, a handful of set-based
 * statements whatever the file's size; any bad row → nothing written. The live feed gets one 'fleet' change per new
 * company and per site that gained or changed something (a moved terminal names its old place and its new one).
 */
export function createFleetImportService(repos: Repositories) {
  /** What the agent's fleet holds now, keyed the way the file names it. */
  async function current(tx: Tx, actor: Actor, lines: ImportLine[]) {
    const companies = new Map<string, { id: number | null; name: string }>();
    for (const c of await repos.companies.liveOf(tx, actor.agentId)) companies.set(lower(c.name), c);
    const companyKeyById = new Map([...companies.entries()].map(([k, c]) => [c.id!, k]));

    const siteRows = await repos.sites.liveOf(tx, actor.agentId);
    const siteIds = siteRows.map((s) => num(s.id));
    const pumpNos = await repos.pumps.liveNumbers(tx, siteIds);
    const carriers = await repos.terminals.carriers(tx, siteIds);
    const sites = new Map<string, SiteState>();
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
        lat: nullableNum(s.lat),
        lng: nullableNum(s.lng),
        timezone: s.timezone,
        address: s.address,
        fromRow: null,
        changed: false,
        pumps: null,
        pumpsRow: null,
        livePumpNos: pumpNos.get(num(s.id)) ?? new Set(),
        carrier: carriers.get(num(s.id)) ?? null,
        firstTerminal: null,
        before: null,
      };
      state.before = siteView(state, num(s.company_id));
      sites.set(key, state);
    }

    const numbers = [...new Set(lines.flatMap((l) => (l.data ? [l.data.terminal_id] : [])))];
    const found = await repos.terminals.liveByNumber(tx, numbers);
    // How many live pumps each of them carries: one grouped pass over the pumps, not one count per terminal.
    const carried = await repos.pumps.carriedCounts(
      tx,
      found.map((t) => num(t.id)),
    );
    const terminals = new Map<string, TerminalState>();
    for (const t of found) {
      terminals.set(t.terminal_no, {
        id: num(t.id),
        agent_id: num(t.agent_id),
        site_id: num(t.site_id),
        carries: carried.get(num(t.id)) ?? 0,
        tags: t.tags ?? [],
      });
    }
    return { companies, sites, terminals };
  }

  /** Row by row: what each line does (create, update, unchanged) or why it cannot, and what to write. */
  async function plan(tx: Tx, actor: Actor, lines: ImportLine[]) {
    const { companies, sites, terminals } = await current(tx, actor, lines);
    const siteById = new Map([...sites.values()].map((s) => [s.id, s]));
    const results: ImportRowResult[] = [];
    const seenTerminal = new Map<string, number>();
    const newCompanies: string[] = [];
    const newTerminals: Array<{ site: SiteState; number: string; name: string; tags: string[] }> = [];
    const movedTerminals: Array<{ id: number; site: SiteState; from: number }> = [];
    /** Terminals whose tags the file changes (its optional `tags` column, docs/targets.md). */
    const retagged: Array<{ id: number; site: SiteState; before: string[]; tags: string[] }> = [];

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
          address: null,
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
          newTerminals.push({ site, number: d.terminal_id, name: d.site_title, tags: d.tags ?? [] });
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
        if (existing && existing.agent_id === actor.agentId && d.tags && !sameTags(d.tags, existing.tags)) {
          retagged.push({ id: existing.id, site, before: existing.tags, tags: d.tags });
          changes = true;
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
    return { results, companies, sites, newCompanies, newTerminals, movedTerminals, retagged };
  }
  type Plan = Awaited<ReturnType<typeof plan>>;

  async function apply(tx: Tx, actor: Actor, p: Plan, result: ImportResult) {
    const audit: Array<[string, string, number, unknown, unknown]> = [];
    const changes: ChangeInput[] = [];
    const fleet = (place: Omit<ChangeInput, 'kind' | 'agentId'>) =>
      changes.push({ kind: 'fleet', agentId: actor.agentId, ...place });

    // Companies.
    if (p.newCompanies.length) {
      const rows = await repos.companies.insert(
        tx,
        actor.agentId,
        p.newCompanies.map((k) => p.companies.get(k)!.name),
      );
      for (const r of rows) {
        p.companies.get(lower(r.name))!.id = r.id;
        audit.push(['create', 'company', r.id, null, { id: r.id, name: r.name }]);
        fleet({ companyId: r.id });
      }
    }
    const companyId = (key: string) => p.companies.get(key)!.id!;
    const siteFields = (s: SiteState) => ({
      company_id: companyId(s.companyKey),
      title: s.title,
      number: s.number,
      lat: s.lat,
      lng: s.lng,
      timezone: s.timezone,
      address: s.address,
    });

    // Sites: new ones, then the changed ones.
    const sites = [...p.sites.values()];
    const created = sites.filter((s) => s.id === null);
    if (created.length) {
      const rows = await repos.sites.insert(tx, actor.agentId, created.map(siteFields));
      const byKey = new Map(rows.map((r) => [`${num(r.company_id)}\u0000${r.number}`, num(r.id)]));
      for (const s of created) {
        s.id = byKey.get(`${companyId(s.companyKey)}\u0000${s.number}`)!;
        audit.push(['create', 'site', s.id, null, siteView(s, companyId(s.companyKey))]);
        fleet({ companyId: companyId(s.companyKey), siteId: s.id });
      }
    }
    const updated = sites.filter((s) => s.before !== null && s.changed);
    if (updated.length) {
      await repos.sites.update(
        tx,
        updated.map((s) => ({ id: s.id!, ...siteFields(s) })),
      );
      for (const s of updated) {
        audit.push(['update', 'site', s.id!, s.before, siteView(s, companyId(s.companyKey))]);
        fleet({ companyId: companyId(s.companyKey), siteId: s.id });
      }
    }

    // Terminals: moves, then new ones (the first terminal of a site without a carrier carries its pumps).
    if (p.movedTerminals.length) {
      const moved = p.movedTerminals;
      const siteById = new Map(sites.map((s) => [s.id, s]));
      await repos.terminals.move(
        tx,
        moved.map((m) => ({ id: m.id, siteId: m.site.id!, companyId: companyId(m.site.companyKey) })),
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
    if (p.newTerminals.length) {
      const nt = p.newTerminals;
      const controller = nt.map((t) => t.site.carrier === null && t.site.firstTerminal === t.number);
      const rows = await repos.terminals.insert(
        tx,
        actor.agentId,
        nt.map((t, i) => ({
          siteId: t.site.id!,
          companyId: companyId(t.site.companyKey),
          terminalNo: t.number,
          cardAcceptorName: t.name,
          lat: t.site.lat,
          lng: t.site.lng,
          pumpController: controller[i],
          tags: t.tags,
        })),
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
            tags: t.tags,
          },
        ]);
      });
    }
    if (p.retagged.length) {
      await repos.terminals.retag(tx, p.retagged);
      for (const r of p.retagged) {
        audit.push(['update', 'terminal', r.id, { id: r.id, tags: r.before }, { id: r.id, tags: r.tags }]);
        fleet({ companyId: companyId(r.site.companyKey), siteId: r.site.id, terminalId: r.id });
      }
    }

    // Pumps 1..N that a site lacks, carried by its carrier terminal.
    const newPumps: Array<{ siteId: number; terminalId: number; pumpNo: number }> = [];
    for (const s of sites) {
      if (s.pumps === null || s.carrier === null) continue;
      const before = newPumps.length;
      for (let n = 1; n <= s.pumps; n++) {
        if (!s.livePumpNos.has(n))
          newPumps.push({ siteId: s.id!, terminalId: s.carrier as number, pumpNo: n });
      }
      if (newPumps.length > before) fleet({ companyId: companyId(s.companyKey), siteId: s.id });
    }
    if (newPumps.length) {
      for (const r of await repos.pumps.insert(tx, newPumps)) {
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
    await tx.audit(
      audit.map(([action, entity, id, before, after]) =>
        auditOf(actor, action, entity, id || null, before, after),
      ),
    );
    await tx.changed(changes);
  }

  return {
    /** Checks every line; unless `dryRun` or a line is bad, writes them all. Answers row by row. */
    async run(actor: Actor, lines: ImportLine[], dryRun: boolean): Promise<ImportResult> {
      return repos.work.run(async (tx) => {
        const p = await plan(tx, actor, lines);
        const result = summarise(p.results, dryRun);
        if (dryRun || result.errors > 0) return result;
        await apply(tx, actor, p, result);
        return result;
      });
    },
  };
}
export type FleetImportService = ReturnType<typeof createFleetImportService>;

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
