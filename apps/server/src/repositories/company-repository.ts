import type { Database } from '../db/client.ts';

export interface CompanyDetailRow {
  id: number;
  name: string;
  agentId: number;
  logo: string | null;
  sitesCount: number;
}

export function createCompanyRepository(database: Database) {
  return {
    async detail(id: number): Promise<CompanyDetailRow | null> {
      const rows = await database.query<{
        id: number;
        name: string;
        agent_id: number;
        logo: string | null;
        sites_count: number | string;
      }>(
        `select c.id, c.name, c.agent_id, c.logo,
                (select count(*) from sites s where s.company_id = c.id and s.decommissioned_at is null) as sites_count
           from companies c where c.id = $1`,
        [id],
      );
      const r = rows[0];
      return r
        ? { id: r.id, name: r.name, agentId: r.agent_id, logo: r.logo, sitesCount: Number(r.sites_count) }
        : null;
    },
  };
}
export type CompanyRepository = ReturnType<typeof createCompanyRepository>;
