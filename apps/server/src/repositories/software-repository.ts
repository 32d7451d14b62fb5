import type { PackageKind, SoftwarePackage } from '@forecourt/contract/software';
import type { Database } from '../db/client.ts';
import type { softwarePackages } from '../db/schema/software.ts';
import { iso, num } from './read-scope.ts';
import type { Row } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

/** The bytes of a package are stored in pieces of this size (the last one shorter). */
export const CHUNK_BYTES = 1024 * 1024;

type PackageRow = Row<
  typeof softwarePackages,
  'id' | 'agent_id' | 'name' | 'version' | 'kind' | 'size' | 'sha256' | 'created_by' | 'created_at'
>;

const COLS = 'p.id, p.agent_id, p.name, p.version, p.kind, p.size, p.sha256, p.created_by, p.created_at';

/** A package with the agent whose fleet it belongs to. */
export interface PackageRecord extends SoftwarePackage {
  agentId: number;
}

const toPackage = (r: PackageRow): PackageRecord => ({
  id: num(r.id),
  name: r.name,
  version: r.version,
  kind: r.kind as PackageKind,
  size: num(r.size),
  sha256: r.sha256,
  created_by: r.created_by,
  created_at: iso(r.created_at)!,
  agentId: num(r.agent_id),
});

/** The public shape (what the API answers and the audit records). */
export const publicPackage = ({ agentId: _, ...p }: PackageRecord): SoftwarePackage => p;

const asBuffer = (v: Uint8Array | Buffer | string): Buffer =>
  Buffer.isBuffer(v)
    ? v
    : typeof v === 'string'
      ? Buffer.from(v.replace(/^\\x/, ''), 'hex')
      : Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/**
 * Software packages and their bytes (docs/rollouts.md). An upload streams in: the package row is created
 * `uploading`, each 1 MiB piece is written as it arrives (no transaction held open while the client sends, so a slow
 * upload never blocks the database), and the package becomes `ready` in one unit of work with its audit entry.
 * Downloads read only the pieces a range needs.
 */
export function createSoftwareRepository(database: Database) {
  return {
    /** A package row for an upload that has just begun (listed nowhere until `ready`). */
    async begin(agentId: number, actor: { userId: number; username: string }): Promise<number> {
      const rows = await database.query<{ id: number }>(
        `insert into software_packages (agent_id, name, version, kind, created_by, created_by_id)
         values ($1, '', '', 'software', $2, $3) returning id`,
        [agentId, actor.username, actor.userId],
      );
      return num(rows[0].id);
    },

    /** Stores one piece of an upload. */
    async appendChunk(packageId: number, seq: number, data: Buffer): Promise<void> {
      await database.query('insert into software_chunks (package_id, seq, data) values ($1, $2, $3)', [
        packageId,
        seq,
        data,
      ]);
    },

    /** Forgets an upload that did not complete (too large, bad fields, the client went away). */
    async discard(packageId: number): Promise<void> {
      await database.query('delete from software_chunks where package_id = $1', [packageId]);
      await database.query(`delete from software_packages where id = $1 and state = 'uploading'`, [
        packageId,
      ]);
    },

    /** Makes an upload a package: its fields, size and digest. */
    async ready(
      tx: Tx,
      packageId: number,
      f: { name: string; version: string; kind: PackageKind; size: number; sha256: string },
    ): Promise<PackageRecord> {
      const rows = await tx<PackageRow>(
        `update software_packages p set name = $2, version = $3, kind = $4, size = $5, sha256 = $6, state = 'ready',
                created_at = now()
          where p.id = $1 and p.state = 'uploading'
          returning ${COLS}`,
        [packageId, f.name, f.version, f.kind, f.size, f.sha256],
      );
      return toPackage(rows[0]!);
    },

    /** Ready packages of an agent, newest first. */
    async list(agentId: number, page: { limit: number; before?: string }): Promise<PackageRecord[]> {
      const params: unknown[] = [agentId, page.limit];
      let before = '';
      if (page.before) {
        params.push(page.before);
        before = 'and p.id < $3::int';
      }
      const rows = await database.query<PackageRow>(
        `select ${COLS} from software_packages p
          where p.agent_id = $1 and p.state = 'ready' and p.deleted_at is null ${before}
          order by p.id desc limit $2`,
        params,
      );
      return rows.map(toPackage);
    },

    /** A ready, not deleted package (any agent's: the caller checks whose). */
    async byId(id: number, q: Tx | null = null): Promise<PackageRecord | null> {
      const sql = `select ${COLS} from software_packages p where p.id = $1 and p.state = 'ready' and p.deleted_at is null`;
      const rows = q ? await q<PackageRow>(sql, [id]) : await database.query<PackageRow>(sql, [id]);
      return rows[0] ? toPackage(rows[0]) : null;
    },

    /** Deletes a package: it leaves every list and its bytes go. */
    async remove(tx: Tx, id: number): Promise<void> {
      await tx('update software_packages set deleted_at = now() where id = $1', [id]);
      await tx('delete from software_chunks where package_id = $1', [id]);
    },

    /** The pieces `from`…`to` (inclusive) of a package, in order. */
    async chunks(packageId: number, from: number, to: number): Promise<Buffer[]> {
      const rows = await database.query<{ data: Uint8Array | Buffer | string }>(
        'select data from software_chunks where package_id = $1 and seq between $2 and $3 order by seq',
        [packageId, from, to],
      );
      return rows.map((r) => asBuffer(r.data));
    },

    /** Uploads begun before `before` that never completed (a node died meanwhile): their pieces go. */
    async pruneStale(before: Date): Promise<number> {
      const rows = await database.query<{ id: number }>(
        `delete from software_packages where state = 'uploading' and created_at < $1 returning id`,
        [before],
      );
      if (rows.length)
        await database.query('delete from software_chunks where package_id = any($1::int[])', [
          rows.map((r) => num(r.id)),
        ]);
      return rows.length;
    },
  };
}
export type SoftwareRepository = ReturnType<typeof createSoftwareRepository>;
