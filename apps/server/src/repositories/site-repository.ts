import type { Database } from '../db/client.ts';

export interface SiteDetailRow {
  id: number;
  title: string;
  number: string;
  companyId: number;
  companyName: string;
  lat: number | null;
  lng: number | null;
  city: string | null;
  timezone: string;
}

export function createSiteRepository(database: Database) {
  return {
    async detail(id: number): Promise<SiteDetailRow | null> {
      const rows = await database.query<{
        id: number;
        title: string;
        number: string;
        company_id: number;
        company_name: string;
        lat: number | null;
        lng: number | null;
        city: string | null;
        timezone: string;
      }>(
        `select s.id, s.title, s.number, s.company_id, c.name as company_name, s.lat, s.lng, s.city, s.timezone
           from sites s join companies c on c.id = s.company_id where s.id = $1`,
        [id],
      );
      const r = rows[0];
      return r
        ? {
            id: r.id,
            title: r.title,
            number: r.number,
            companyId: r.company_id,
            companyName: r.company_name,
            lat: r.lat === null ? null : Number(r.lat),
            lng: r.lng === null ? null : Number(r.lng),
            city: r.city,
            timezone: r.timezone,
          }
        : null;
    },
  };
}
export type SiteRepository = ReturnType<typeof createSiteRepository>;
