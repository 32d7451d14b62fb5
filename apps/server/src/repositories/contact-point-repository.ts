import type { ContactPoint, ContactPointKind, OwnerKind } from '@forecourt/contract/notifications';
import type { Database } from '../db/client.ts';
import type { contactPoints } from '../db/schema/notifications.ts';
import { listManaged, type ManagedTable, managedById, managedBySql } from './managed-sql.ts';
import { iso, num } from './read-scope.ts';
import type { Row } from './rows.ts';
import type { Place, Visibility } from './rule-repository.ts';
import { placeParams } from './rule-sql.ts';
import type { Tx } from './unit-of-work.ts';

/** A contact point as stored: its public shape, where its owner sits, and its secret (never answered). */
export interface ContactPointRecord extends ContactPoint {
  place: Place;
  secret: string | null;
}

/** A contact point's fields as written. */
export interface ContactPointFields {
  name: string;
  kind: ContactPointKind;
  addresses: string[];
  url: string | null;
  secret: string | null;
  ownerKind: OwnerKind;
  ownerId: number;
  place: Place;
}

type DbContactPoint = Row<
  typeof contactPoints,
  | 'id'
  | 'name'
  | 'kind'
  | 'addresses'
  | 'url'
  | 'secret'
  | 'owner_kind'
  | 'owner_id'
  | 'agent_id'
  | 'company_id'
  | 'site_id'
  | 'created_by'
  | 'created_at'
>;

const TABLE: ManagedTable = {
  table: 'contact_points',
  x: 'c',
  cols: `c.id, c.name, c.kind, c.addresses, c.url, c.secret, c.owner_kind, c.owner_id, c.agent_id, c.company_id,
              c.site_id, c.created_by, c.created_at`,
};
const COLS = TABLE.cols;

function toRecord(r: DbContactPoint): ContactPointRecord {
  return {
    id: num(r.id),
    name: r.name,
    kind: r.kind as ContactPointKind,
    addresses: r.addresses ?? [],
    url: r.url,
    has_secret: r.secret !== null && r.secret !== '',
    owner: { kind: r.owner_kind as OwnerKind, id: num(r.owner_id) },
    created_by: r.created_by,
    created_at: iso(r.created_at)!,
    place: { agentId: r.agent_id, companyId: r.company_id, siteId: r.site_id },
    secret: r.secret,
  };
}

/** A contact point's fields as SQL parameters, in the order of its columns from `name` to `site_id` (not `kind`). */
const fieldParams = (f: ContactPointFields) => [
  f.name,
  f.addresses,
  f.url,
  f.secret,
  f.ownerKind,
  f.ownerId,
  ...placeParams(f.place),
];

/** Contact points (docs/integrations.md): one table's SQL; writes take the unit of work's `tx`. */
export function createContactPointRepository(database: Database) {
  return {
    async list(v: Visibility, page: { limit: number; before?: string }): Promise<ContactPointRecord[]> {
      return (await listManaged<DbContactPoint>(database, TABLE, v, page)).map(toRecord);
    },

    /** A contact point and whether `v` manages it; null when there is none. */
    async byId(id: number, v: Visibility): Promise<{ point: ContactPointRecord; visible: boolean } | null> {
      const r = await managedById<DbContactPoint>(database, TABLE, id, v);
      return r ? { point: toRecord(r), visible: r.visible } : null;
    },

    /** Of `ids`, those that are not contact points `v` manages. */
    async unknownOf(ids: readonly number[], v: Visibility): Promise<number[]> {
      if (!ids.length) return [];
      const rows = await database.query<{ id: number }>(
        `select c.id from contact_points c where c.id = any($1::int[]) and ${managedBySql('c', '$2', '$3')}`,
        [ids, v.agentId, v.companyIds],
      );
      const known = new Set(rows.map((r) => num(r.id)));
      return ids.filter((id) => !known.has(id));
    },

    /** Every contact point (with its secret): what the delivery worker sends with. */
    async forSending(id: number): Promise<ContactPointRecord | null> {
      const rows = await database.query<DbContactPoint>(
        `select ${COLS} from contact_points c where c.id = $1`,
        [id],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },

    async insert(tx: Tx, actor: { userId: number; username: string }, f: ContactPointFields) {
      const rows = await tx<DbContactPoint>(
        `insert into contact_points as c (kind, name, addresses, url, secret, owner_kind, owner_id, agent_id,
                                          company_id, site_id, created_by, created_by_id)
         values ($1, $2, $3::text[], $4, $5, $6, $7, $8, $9, $10, $11, $12)
         returning ${COLS}`,
        [f.kind, ...fieldParams(f), actor.username, actor.userId],
      );
      return toRecord(rows[0]!);
    },

    async update(tx: Tx, id: number, f: ContactPointFields) {
      const rows = await tx<DbContactPoint>(
        `update contact_points c set name = $2, addresses = $3::text[], url = $4, secret = $5, owner_kind = $6,
                owner_id = $7, agent_id = $8, company_id = $9, site_id = $10
          where c.id = $1
          returning ${COLS}`,
        [id, ...fieldParams(f)],
      );
      return toRecord(rows[0]!);
    },

    /**
     * Deletes a contact point (its deliveries go with it) and takes it out of every policy. A user's own alert mail
     * is turned off with it (docs/decisions/0025-notifications.md).
     */
    async remove(tx: Tx, id: number): Promise<void> {
      await tx(
        `update users set email_min_severity = null
          where id = (select user_id from contact_points where id = $1)`,
        [id],
      );
      await tx(
        `update notification_policies
            set contact_point_ids = array_remove(contact_point_ids, $1), escalate_to_ids = array_remove(escalate_to_ids, $1)
          where $1 = any(contact_point_ids) or $1 = any(escalate_to_ids)`,
        [id],
      );
      await tx('delete from contact_points where id = $1', [id]);
    },
  };
}
export type ContactPointRepository = ReturnType<typeof createContactPointRepository>;
