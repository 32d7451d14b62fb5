import type {
  AdminPump,
  AdminSite,
  AdminTerminal,
  Company,
  PumpCreate,
  PumpPatch,
  SiteCreate,
  SitePatch,
  TerminalCreate,
  TerminalPatch,
} from '@forecourt/contract/admin';
import type { ChangeInput } from '../repositories/change-repository.ts';
import type { Repositories } from '../repositories/index.ts';
import { toAdminPump } from '../repositories/pump-repository.ts';
import { num } from '../repositories/read-scope.ts';
import { toAdminSite } from '../repositories/site-repository.ts';
import { toAdminTerminal } from '../repositories/terminal-repository.ts';
import { type Actor, auditOf, fleetAt, sessionsOf, type Tx } from './actor.ts';
import { invalid, uniqueAs } from './domain-errors.ts';
import {
  blockedByChildren,
  childLabel,
  isOwnLive,
  noCarrier,
  ownLive,
  patched,
  pumpChildren,
  unchanged,
} from './fleet-rules.ts';

const noCompany = (id: number) => invalid(`company_id: no company of yours has id ${id}.`);
const noSite = (id: number) => invalid(`site_id: no site of yours has id ${id}.`);

/**
 * Fleet administration (docs/product.md#fleet-administration): companies, sites, terminals and pumps under one
 * agent id, and the rules that span their tables (fleet-rules.ts, the pump carrier of
 * repositories/pump-carrier.ts). Every change is one unit of work with its audit entry (who, before, after) and its
 * 'fleet' changes naming the places it touched (a move names the old place and the new one). A refused change
 * throws a DomainError (domain-errors.ts).
 *
 * Decommissioned rows keep their history but leave every read; a place with live children cannot be
 * decommissioned. Moving a site to another company, or a terminal to another site, moves what happened there with
 * it (repositories/place-history-repository.ts): the new owner sees and acts on it and the old one gets 403.
 */
export function createFleetService(repos: Repositories) {
  const { companies, sites, terminals, pumps, work } = repos;
  const audited = (actor: Actor) => ({
    create: (entity: string, id: number, after: unknown) => auditOf(actor, 'create', entity, id, null, after),
    update: (entity: string, id: number, before: unknown, after: unknown) =>
      auditOf(actor, 'update', entity, id, before, after),
    decommission: (entity: string, id: number, before: unknown) =>
      auditOf(actor, 'decommission', entity, id, before, null),
  });

  /** A live company of the actor's, named by a field of the body; else the 400 naming it. */
  async function companyOf(tx: Tx, actor: Actor, companyId: number) {
    const company = await companies.byId(companyId, tx);
    if (!company || !isOwnLive(company, actor.agentId)) throw noCompany(companyId);
    return company;
  }
  /** A live site of the actor's, named by a field of the body; else the 400 naming it. */
  async function siteOf(tx: Tx, actor: Actor, siteId: number) {
    const site = await sites.byId(siteId, tx);
    if (!site || !isOwnLive(site, actor.agentId)) throw noSite(siteId);
    return site;
  }

  return {
    companies: {
      ...reads(companies, 'company', (row): Company => ({ id: num(row.id), name: row.name })),

      async create(actor: Actor, body: { name: string }): Promise<Company> {
        return work
          .run(async (tx) => {
            const [row] = await companies.insert(tx, actor.agentId, [body.name]);
            const company = { id: row.id, name: body.name };
            await tx.audit(audited(actor).create('company', company.id, company));
            await tx.changed([fleetAt(actor.agentId, { companyId: company.id })]);
            return company;
          })
          .catch(companyNameTaken(body));
      },

      async patch(actor: Actor, id: number, body: { name?: string }): Promise<Company> {
        return work
          .run(async (tx) => {
            const row = ownLive(await companies.byId(id, tx), actor.agentId, 'company', id);
            const before = { id, name: row.name };
            const after = { id, name: body.name ?? row.name };
            if (after.name !== before.name) {
              await companies.rename(tx, id, after.name);
              await tx.audit(audited(actor).update('company', id, before, after));
              await tx.changed([fleetAt(actor.agentId, { companyId: id })]);
            }
            return after;
          })
          .catch(companyNameTaken(body));
      },

      /** Refused while the company has live sites; its users keep their accounts but no longer reach it. */
      async decommission(actor: Actor, id: number): Promise<Company> {
        return work.run(async (tx) => {
          const row = ownLive(await companies.byId(id, tx), actor.agentId, 'company', id);
          const live = await sites.liveOfCompany(tx, id);
          const blocked = blockedByChildren(
            `Company ${id}`,
            live.map((s) => ({ entity: 'site', id: num(s.id), label: childLabel.site(s) })),
          );
          if (blocked) throw blocked;
          await companies.decommission(tx, id);
          const users = await repos.userAdmin.leaveCompany(tx, id);
          const company = { id, name: row.name };
          await tx.audit(audited(actor).decommission('company', id, company));
          await tx.changed([fleetAt(actor.agentId, { companyId: id }), ...sessionsOf(users)]);
          return company;
        });
      },
    },

    sites: {
      ...reads(sites, 'site', toAdminSite),

      async create(actor: Actor, body: SiteCreate): Promise<AdminSite> {
        return work
          .run(async (tx) => {
            await companyOf(tx, actor, body.company_id);
            const site = toAdminSite((await sites.insert(tx, actor.agentId, [body]))[0]);
            await tx.audit(audited(actor).create('site', site.id, site));
            await tx.changed([fleetAt(actor.agentId, { companyId: site.company_id, siteId: site.id })]);
            return site;
          })
          .catch(
            uniqueAs({
              sites_company_number_uq: `number: company ${body.company_id} already has a site numbered "${body.number}".`,
            }),
          );
      },

      /** A site moved to another company: the old company's screens lose it (and its history), the new one's gain it. */
      async patch(actor: Actor, id: number, body: SitePatch): Promise<AdminSite> {
        return work
          .run(async (tx) => {
            const row = ownLive(await sites.byId(id, tx), actor.agentId, 'site', id);
            const before = toAdminSite(row);
            const after = patched(before, body);
            const moves = after.company_id !== before.company_id;
            if (moves) await companyOf(tx, actor, after.company_id);
            if (unchanged(after, before)) return before;
            await sites.update(tx, [after]);
            if (moves) await terminals.followSite(tx, id, after.company_id);
            await tx.audit(audited(actor).update('site', id, before, after));
            await tx.changed([
              fleetAt(actor.agentId, { companyId: before.company_id, siteId: id }),
              fleetAt(actor.agentId, { companyId: after.company_id, siteId: id }),
            ]);
            if (moves) await repos.placeHistory.moveSite(tx, id, { companyId: after.company_id });
            return after;
          })
          .catch(
            uniqueAs({
              sites_company_number_uq: `number: the company already has a site numbered "${body.number}".`,
            }),
          );
      },

      /** Refused while the site has live terminals or pumps; its users keep their accounts but no longer reach it. */
      async decommission(actor: Actor, id: number): Promise<AdminSite> {
        return work.run(async (tx) => {
          const site = toAdminSite(ownLive(await sites.byId(id, tx), actor.agentId, 'site', id));
          const liveTerminals = await terminals.liveOfSite(tx, id);
          const livePumps = await pumps.liveOfSite(tx, id);
          const blocked = blockedByChildren(`Site ${id}`, [
            ...liveTerminals.map((t) => ({
              entity: 'terminal' as const,
              id: num(t.id),
              label: childLabel.terminal(t),
            })),
            ...pumpChildren(livePumps),
          ]);
          if (blocked) throw blocked;
          await sites.decommission(tx, id);
          const users = await repos.userAdmin.leaveSite(tx, id);
          await tx.audit(audited(actor).decommission('site', id, site));
          await tx.changed([
            fleetAt(actor.agentId, { companyId: site.company_id, siteId: id }),
            ...sessionsOf(users),
          ]);
          return site;
        });
      },
    },

    terminals: {
      ...reads(terminals, 'terminal', toAdminTerminal),

      /** A site's first terminal takes control of its pumps (repositories/pump-carrier.ts). */
      async create(actor: Actor, body: TerminalCreate): Promise<AdminTerminal> {
        return work
          .run(async (tx) => {
            const site = await siteOf(tx, actor, body.site_id);
            const [row] = await terminals.insert(tx, actor.agentId, [
              {
                siteId: num(site.id),
                companyId: num(site.company_id),
                terminalNo: body.terminal_id,
                cardAcceptorName: body.card_acceptor_name,
                lat: body.lat === undefined ? site.lat : body.lat,
                lng: body.lng === undefined ? site.lng : body.lng,
                tags: body.tags,
              },
            ]);
            const terminal = toAdminTerminal(row);
            await tx.audit(audited(actor).create('terminal', terminal.id, terminal));
            await tx.changed([
              fleetAt(actor.agentId, {
                companyId: site.company_id,
                siteId: site.id,
                terminalId: terminal.id,
              }),
            ]);
            return terminal;
          })
          .catch(terminalNoTaken(body));
      },

      /** A terminal that carries its site's pumps cannot move to another site. */
      async patch(actor: Actor, id: number, body: TerminalPatch): Promise<AdminTerminal> {
        return work
          .run(async (tx) => {
            const row = ownLive(await terminals.byId(id, tx), actor.agentId, 'terminal', id);
            const before = toAdminTerminal(row);
            const after = patched(before, body);
            if (unchanged(after, before)) return before;
            let companyId = num(row.company_id);
            const moves = after.site_id !== before.site_id;
            if (moves) {
              const site = await siteOf(tx, actor, after.site_id);
              const blocked = blockedByChildren(
                `Terminal ${id} carries pumps of its site and cannot move`,
                pumpChildren(await pumps.carriedBy(tx, id)),
              );
              if (blocked) throw blocked;
              companyId = num(site.company_id);
            }
            await terminals.update(tx, { ...after, companyId });
            await tx.audit(audited(actor).update('terminal', id, before, after));
            await tx.changed([
              fleetAt(actor.agentId, { companyId: row.company_id, siteId: before.site_id, terminalId: id }),
              fleetAt(actor.agentId, { companyId, siteId: after.site_id, terminalId: id }),
            ]);
            if (moves) await repos.placeHistory.moveTerminal(tx, id, { siteId: after.site_id, companyId });
            return after;
          })
          .catch(terminalNoTaken(body));
      },

      /**
       * The pumps the terminal carries go to another live terminal of its site (pump-carrier.ts); with none left they
       * block it. Its device token goes with it (its 'device' change drops cached lookups and ends waiting long-polls
       * on every node) and its active alerts end (the log keeps them).
       */
      async decommission(actor: Actor, id: number): Promise<AdminTerminal> {
        return work.run(async (tx) => {
          const row = ownLive(await terminals.byId(id, tx), actor.agentId, 'terminal', id);
          const here = fleetAt(actor.agentId, {
            companyId: row.company_id,
            siteId: row.site_id,
            terminalId: id,
          });
          const changes: ChangeInput[] = [here, { ...here, kind: 'device' }];
          const carried = await pumps.carriedBy(tx, id);
          if (carried.length) {
            const carrier = await terminals.takeCarrier(tx, num(row.site_id), id);
            if (carrier === null)
              throw blockedByChildren(
                `Terminal ${id} carries the pumps of its site and is its last terminal; it`,
                pumpChildren(carried),
              );
            await pumps.changeCarrier(tx, id, carrier);
            changes.push({ ...here, terminalId: carrier });
          }
          await terminals.decommission(tx, id);
          if ((await repos.alerts.clearOfTerminal(tx, id)) > 0) changes.push({ ...here, kind: 'alert' });
          const terminal = toAdminTerminal(row);
          await tx.audit(audited(actor).decommission('terminal', id, terminal));
          await tx.changed(changes);
          return terminal;
        });
      },
    },

    pumps: {
      ...reads(pumps, 'pump', toAdminPump),

      /** A pump is carried by its site's carrier terminal (pump-carrier.ts): a site without a terminal has none. */
      async create(actor: Actor, body: PumpCreate): Promise<AdminPump> {
        return work
          .run(async (tx) => {
            const site = await siteOf(tx, actor, body.site_id);
            const carrier = await terminals.takeCarrier(tx, body.site_id);
            if (carrier === null) throw noCarrier(body.site_id);
            const [row] = await pumps.insert(tx, [
              { siteId: body.site_id, terminalId: carrier, pumpNo: body.pump_no },
            ]);
            const pump = toAdminPump(row);
            await tx.audit(audited(actor).create('pump', pump.id, pump));
            await tx.changed([
              fleetAt(actor.agentId, {
                companyId: site.company_id,
                siteId: body.site_id,
                terminalId: carrier,
                pumpId: pump.id,
              }),
            ]);
            return pump;
          })
          .catch(
            uniqueAs({
              pumps_site_no_uq: `pump_no: site ${body.site_id} already has a pump ${body.pump_no}.`,
            }),
          );
      },

      /** A pump moved to another site is carried by that site's carrier terminal. */
      async patch(actor: Actor, id: number, body: PumpPatch): Promise<AdminPump> {
        return work
          .run(async (tx) => {
            const row = ownLive(await pumps.byId(id, tx), actor.agentId, 'pump', id);
            const before = toAdminPump(row);
            const after = patched(before, body);
            if (unchanged(after, before)) return before;
            let carrier = num(row.terminal_id);
            let companyId = num(row.company_id);
            if (after.site_id !== before.site_id) {
              const site = await siteOf(tx, actor, after.site_id);
              companyId = num(site.company_id);
              const c = await terminals.takeCarrier(tx, after.site_id);
              if (c === null) throw noCarrier(after.site_id);
              carrier = c;
            }
            await pumps.update(tx, id, { siteId: after.site_id, pumpNo: after.pump_no, terminalId: carrier });
            await tx.audit(audited(actor).update('pump', id, before, after));
            await tx.changed([
              fleetAt(actor.agentId, {
                companyId: row.company_id,
                siteId: before.site_id,
                terminalId: row.terminal_id,
                pumpId: id,
              }),
              fleetAt(actor.agentId, { companyId, siteId: after.site_id, terminalId: carrier, pumpId: id }),
            ]);
            return after;
          })
          .catch(uniqueAs({ pumps_site_no_uq: `pump_no: the site already has a pump ${body.pump_no}.` }));
      },

      async decommission(actor: Actor, id: number): Promise<AdminPump> {
        return work.run(async (tx) => {
          const row = ownLive(await pumps.byId(id, tx), actor.agentId, 'pump', id);
          await pumps.decommission(tx, id);
          const pump = toAdminPump(row);
          await tx.audit(audited(actor).decommission('pump', id, pump));
          await tx.changed([
            fleetAt(actor.agentId, {
              companyId: row.company_id,
              siteId: row.site_id,
              terminalId: row.terminal_id,
              pumpId: id,
            }),
          ]);
          return pump;
        });
      },
    },
  };
}
export type FleetService = ReturnType<typeof createFleetService>;

/** A table's list, and one live row of the agent's by id (`ownLive`: 404 unknown, 403 another agent's). */
function reads<O, L, R extends { agent_id: number | null; decommissioned_at?: unknown }, S>(
  table: { list: (agentId: number, o: O) => Promise<L>; byId: (id: number) => Promise<R | null> },
  entity: string,
  shape: (row: R) => S,
) {
  return {
    list: (agentId: number, o: O) => table.list(agentId, o),
    get: async (agentId: number, id: number): Promise<S> =>
      shape(ownLive(await table.byId(id), agentId, entity, id)),
  };
}

const companyNameTaken = (body: { name?: string }) =>
  uniqueAs({ companies_agent_name_uq: `name: a company named "${body.name}" already exists.` });
const terminalNoTaken = (body: { terminal_id?: string }) =>
  uniqueAs({ terminals_no_uq: `terminal_id: a terminal numbered "${body.terminal_id}" already exists.` });
