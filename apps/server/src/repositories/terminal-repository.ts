import type { AdminTerminal } from '@forecourt/contract/admin';
import type { Database, QueryFn } from '../db/client.ts';
import type { terminals } from '../db/schema/org.ts';
import { carrierSql } from './pump-carrier.ts';
import { iso, type ListOptions, nullableNum, num, Params, pageSql } from './read-scope.ts';
import { type ColumnOf, type Row, selectList } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

const TERMINAL_COLUMNS = [
  'id',
  'agent_id',
  'company_id',
  'site_id',
  'terminal_no',
  'card_acceptor_name',
  'lat',
  'lng',
  'pump_controller',
  'tags',
  'software_version',
  'created_at',
  'decommissioned_at',
] as const satisfies readonly ColumnOf<typeof terminals>[];
/** A terminal as the fleet administration reads it; `has_device_token` where the read asks for it. */
export type TerminalRow = Row<typeof terminals, (typeof TERMINAL_COLUMNS)[number]> & {
  has_device_token?: boolean;
};
/** Whether the terminal has a device token: the fleet simulator adopts only terminals nobody provisioned. */
const HAS_TOKEN = 'exists (select 1 from device_tokens d where d.terminal_id = t.id) as has_device_token';
const TERMINAL_SELECT = `${selectList<typeof terminals>('t', TERMINAL_COLUMNS)}, ${HAS_TOKEN}`;

/** The administration's shape of a terminal row. */
export const toAdminTerminal = (r: TerminalRow): AdminTerminal => ({
  id: num(r.id),
  site_id: num(r.site_id),
  terminal_id: r.terminal_no,
  card_acceptor_name: r.card_acceptor_name,
  lat: nullableNum(r.lat),
  lng: nullableNum(r.lng),
  ...(r.has_device_token === undefined ? {} : { has_device_token: Boolean(r.has_device_token) }),
  tags: r.tags ?? [],
  software_version: r.software_version,
  created_at: iso(r.created_at) ?? '',
});

/** What an import knows of a live terminal named in its file. */
export type ImportTerminalRow = Row<
  typeof terminals,
  'id' | 'agent_id' | 'site_id' | 'terminal_no' | 'card_acceptor_name' | 'tags'
>;

/** A terminal to insert. */
export interface NewTerminal {
  siteId: number;
  companyId: number;
  terminalNo: string;
  cardAcceptorName: string;
  lat: number | null;
  lng: number | null;
  /** Whether it takes control of its site's pumps (the carrier rule, pump-carrier.ts); by default when its site has no carrier. */
  pumpController?: boolean;
  /** Its tags, already checked and lowercased (docs/targets.md); none by default. */
  tags?: readonly string[];
}

/**
 * The `terminals` table. Decommissioned rows stay (the logs and the audit name them) but leave every list; the pump
 * carrier rule (which terminal carries a site's pumps) is pump-carrier.ts.
 */
export function createTerminalRepository(database: Database) {
  const query: QueryFn = database.query.bind(database);
  return {
    /** The agent's live terminals (of one site with `siteId`, carrying every one of `tags`), newest first. */
    async list(
      agentId: number,
      o: ListOptions & { siteId?: number; tags?: readonly string[] },
    ): Promise<AdminTerminal[]> {
      const p = new Params();
      const where = [`t.agent_id = ${p.add(agentId)}`, 't.decommissioned_at is null'];
      if (o.siteId !== undefined) where.push(`t.site_id = ${p.add(o.siteId)}`);
      if (o.tags?.length) where.push(`t.tags @> ${p.add(o.tags)}::text[]`);
      const rows = await query<TerminalRow>(
        `select ${TERMINAL_SELECT} from terminals t ${pageSql(where, p, 't.id', o, ['t.terminal_no', 't.card_acceptor_name'])}`,
        p.values,
      );
      return rows.map(toAdminTerminal);
    },

    /** A terminal by id, decommissioned or not; null when there is none. */
    async byId(id: number, q: QueryFn = query): Promise<TerminalRow | null> {
      const rows = await q<TerminalRow>(`select ${TERMINAL_SELECT} from terminals t where t.id = $1`, [id]);
      return rows[0] ?? null;
    },

    /** Where a live terminal sits (its site and company), or null. */
    async place(q: QueryFn, id: number): Promise<{ siteId: number; companyId: number } | null> {
      const rows = await q<Row<typeof terminals, 'site_id' | 'company_id'>>(
        'select site_id, company_id from terminals where id = $1 and decommissioned_at is null',
        [id],
      );
      return rows[0] ? { siteId: num(rows[0].site_id), companyId: num(rows[0].company_id) } : null;
    },

    /** The live terminals numbered `numbers`, of any agent. */
    async liveByNumber(q: QueryFn, numbers: readonly string[]): Promise<ImportTerminalRow[]> {
      if (!numbers.length) return [];
      return q<ImportTerminalRow>(
        `select t.id, t.agent_id, t.site_id, t.terminal_no, t.card_acceptor_name, t.tags
           from terminals t where t.terminal_no = any($1::text[]) and t.decommissioned_at is null`,
        [numbers],
      );
    },

    /** The live terminals of a site, oldest first. */
    async liveOfSite(
      q: QueryFn,
      siteId: number,
    ): Promise<Array<Row<typeof terminals, 'id' | 'terminal_no'>>> {
      return q<Row<typeof terminals, 'id' | 'terminal_no'>>(
        'select id, terminal_no from terminals where site_id = $1 and decommissioned_at is null order by id',
        [siteId],
      );
    },

    /** The terminal carrying each of these sites' pumps (pump-carrier.ts); sites without one are left out. */
    async carriers(q: QueryFn, siteIds: readonly number[]): Promise<Map<number, number>> {
      if (!siteIds.length) return new Map();
      const rows = await q<{ site_id: number; carrier: number | null }>(
        `select s.id as site_id, ${carrierSql('s.id')} as carrier from unnest($1::int[]) as s(id)`,
        [siteIds],
      );
      return new Map(rows.filter((r) => r.carrier !== null).map((r) => [num(r.site_id), num(r.carrier)]));
    },

    /**
     * The terminal that is to carry the site's pumps, leaving out `except` (pump-carrier.ts); it becomes the site's
     * pump controller. Null when the site has no other live terminal.
     */
    async takeCarrier(tx: Tx, siteId: number, except = 0): Promise<number | null> {
      const rows = await tx<{ id: number | null }>(
        `with c as (select ${carrierSql('$1::int', '$2::int')} as id),
              u as (update terminals set pump_controller = true where id = (select id from c) and not pump_controller)
         select id from c`,
        [siteId, except],
      );
      return rows[0]?.id == null ? null : num(rows[0].id);
    },

    /** Inserts terminals of the agent in the order given; answers them (without `has_device_token`). */
    async insert(tx: Tx, agentId: number, rows: readonly NewTerminal[]): Promise<TerminalRow[]> {
      return tx<TerminalRow>(
        `insert into terminals (site_id, company_id, agent_id, terminal_no, card_acceptor_name, lat, lng, pump_controller,
                                tags)
         select u.s, u.c, $1, u.n, u.name, u.la, u.ln, coalesce(u.pc, ${carrierSql('u.s')} is null),
                string_to_array(u.tg, ';')
           from unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::boolean[],
                       $9::text[])
                with ordinality as u(s, c, n, name, la, ln, pc, tg, o)
          order by u.o
         returning ${TERMINAL_COLUMNS.join(', ')}`,
        [
          agentId,
          rows.map((t) => t.siteId),
          rows.map((t) => t.companyId),
          rows.map((t) => t.terminalNo),
          rows.map((t) => t.cardAcceptorName),
          rows.map((t) => t.lat),
          rows.map((t) => t.lng),
          rows.map((t) => t.pumpController ?? null),
          // A tag holds no ';' (docs/targets.md): one text per terminal, split back into its array.
          rows.map((t) => (t.tags ?? []).join(';')),
        ],
      );
    },

    /** Writes a terminal's fields; a terminal that changes site hands on the control of its old site's pumps. */
    async update(tx: Tx, t: AdminTerminal & { companyId: number }): Promise<void> {
      await tx(
        `update terminals set site_id = $2, terminal_no = $3, card_acceptor_name = $4, lat = $5, lng = $6,
                company_id = $7, pump_controller = case when $2 <> site_id then false else pump_controller end,
                tags = $8::text[]
          where id = $1`,
        [t.id, t.site_id, t.terminal_id, t.card_acceptor_name, t.lat, t.lng, t.companyId, t.tags],
      );
    },

    /** Sets the tags of terminals (already checked and lowercased), one list per terminal. */
    async retag(tx: Tx, changes: ReadonlyArray<{ id: number; tags: readonly string[] }>): Promise<void> {
      if (!changes.length) return;
      await tx(
        `update terminals t set tags = string_to_array(u.tg, ';')
           from unnest($1::int[], $2::text[]) as u(id, tg) where t.id = u.id`,
        [changes.map((c) => c.id), changes.map((c) => c.tags.join(';'))],
      );
    },

    /** Moves terminals to other sites; each hands on the control of its old site's pumps. */
    async move(
      tx: Tx,
      moves: ReadonlyArray<{ id: number; siteId: number; companyId: number }>,
    ): Promise<void> {
      await tx(
        `update terminals t set site_id = u.s, company_id = u.c, pump_controller = false
           from unnest($1::int[], $2::int[], $3::int[]) as u(id, s, c) where t.id = u.id`,
        [moves.map((m) => m.id), moves.map((m) => m.siteId), moves.map((m) => m.companyId)],
      );
    },

    /** The terminals of a site follow it to another company. */
    async followSite(tx: Tx, siteId: number, companyId: number): Promise<void> {
      await tx('update terminals set company_id = $2 where site_id = $1', [siteId, companyId]);
    },

    /** Decommissions a terminal: it hands on the control of its site's pumps and its device token goes. */
    async decommission(tx: Tx, id: number): Promise<void> {
      await tx('update terminals set decommissioned_at = now(), pump_controller = false where id = $1', [id]);
      await tx('delete from device_tokens where terminal_id = $1', [id]);
    },
  };
}
export type TerminalRepository = ReturnType<typeof createTerminalRepository>;
