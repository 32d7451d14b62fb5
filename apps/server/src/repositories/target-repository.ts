import type { Target, TargetPreview, TargetTerminal } from '@forecourt/contract/targets';
import type { Database } from '../db/client.ts';
import { num, Params } from './read-scope.ts';
import { targetWhereSql } from './target-sql.ts';

/** The terminals a target reaches now (docs/targets.md); the SQL itself is in target-sql.ts. */
export function createTargetRepository(database: Database) {
  const q = database.query.bind(database);
  return {
    /** How many terminals the target reaches, and the first `limit` of them by terminal number. */
    async preview(target: Target, limit: number): Promise<TargetPreview> {
      const p = new Params();
      const where = targetWhereSql(target, p);
      const [counted] = await q<{ n: number | string }>(
        `select count(*) as n from terminals t where ${where}`,
        p.values,
      );
      const count = num(counted?.n ?? 0);
      if (limit === 0 || count === 0) return { count, terminals: [] };
      const rows = await q<{
        id: number;
        terminal_no: string;
        site_id: number;
        site_title: string;
        tags: string[] | null;
      }>(
        `select t.id, t.terminal_no, t.site_id, s.title as site_title, t.tags
           from terminals t join sites s on s.id = t.site_id
          where ${where}
          order by t.terminal_no, t.id
          limit ${p.add(limit)}`,
        p.values,
      );
      const terminals: TargetTerminal[] = rows.map((r) => ({
        id: num(r.id),
        terminal_id: r.terminal_no,
        site_id: num(r.site_id),
        site_title: r.site_title,
        tags: r.tags ?? [],
      }));
      return { count, terminals };
    },

    /** The ids of every terminal the target reaches, ascending. */
    async terminalIds(target: Target): Promise<number[]> {
      const p = new Params();
      const rows = await q<{ id: number }>(
        `select t.id from terminals t where ${targetWhereSql(target, p)} order by t.id`,
        p.values,
      );
      return rows.map((r) => num(r.id));
    },

    /** Whether the target reaches this terminal now. */
    async reaches(target: Target, terminalId: number): Promise<boolean> {
      const p = new Params();
      const where = targetWhereSql(target, p);
      const rows = await q(
        `select 1 from terminals t where t.id = ${p.add(terminalId)}::int and ${where}`,
        p.values,
      );
      return rows.length > 0;
    },
  };
}
export type TargetRepository = ReturnType<typeof createTargetRepository>;
