import type { Database } from '../src/db/client.ts';
import { hashPassword } from '../src/services/passwords.ts';
import { DEMO_PASSWORD } from './helper.ts';

export interface OrgFixture {
  agentId: number;
  /** The company of the `company` user, and one more company of the same agent it does not reach. */
  companyId: number;
  otherCompanyId: number;
  /** The site of the `site` user, a site of the company user's company, and a site of the other company. */
  siteId: number;
  companySiteId: number;
  otherCompanySiteId: number;
  /** A second agent with a company and a site: outside every demo user's scope. */
  outsider: { agentId: number; companyId: number; siteId: number };
}

async function one<T>(database: Database, sql: string, params: unknown[] = []): Promise<T> {
  const rows = await database.query<T>(sql, params);
  if (!rows[0]) throw new Error(`fixture query found nothing: ${sql}`);
  return rows[0];
}

async function insertOrg(database: Database, name: string) {
  const agent = await one<{ id: number }>(database, 'insert into agents (name) values ($1) returning id', [
    name,
  ]);
  const company = await one<{ id: number }>(
    database,
    'insert into companies (agent_id, name) values ($1, $2) returning id',
    [agent.id, `${name} Fuels`],
  );
  const site = await one<{ id: number }>(
    database,
    `insert into sites (company_id, agent_id, title, number, city, lat, lng, timezone)
     values ($1, $2, $3, $4, 'Leeds', 53.8, -1.55, 'Europe/London') returning id`,
    [company.id, agent.id, `${name} Forecourt`, `9${String(company.id).padStart(4, '0')}`],
  );
  return { agentId: agent.id, companyId: company.id, siteId: site.id };
}

/**
 * The demo users (agent, company, site; password demo1234) as the demo seed creates them, or, on a
 * database without them, the same shape built here; plus an outsider agent nobody reaches.
 */
export async function orgFixture(database: Database): Promise<OrgFixture> {
  const seeded = await database.query('select 1 from users where lower(username) = $1', ['agent']);
  if (!seeded.length) {
    const a = await insertOrg(database, 'Demo Agent');
    const c2 = await one<{ id: number }>(
      database,
      'insert into companies (agent_id, name) values ($1, $2) returning id',
      [a.agentId, 'Second Fuels'],
    );
    await database.query(
      `insert into sites (company_id, agent_id, title, number) values ($1, $2, 'Second Forecourt', '20001'),
              ($3, $2, 'Demo Forecourt Two', '10002')`,
      [c2.id, a.agentId, a.companyId],
    );
    const hash = await hashPassword(DEMO_PASSWORD);
    const user = (username: string, agentId: number | null) =>
      one<{ id: number }>(
        database,
        `insert into users (username, email, name, password_hash, agent_id) values ($1, $2, $3, $4, $5) returning id`,
        [username, `${username}@forecourt.test`, `Demo ${username}`, hash, agentId],
      );
    await user('agent', a.agentId);
    const companyUser = await user('company', null);
    const siteUser = await user('site', null);
    await database.query('insert into user_companies (user_id, company_id) values ($1, $2)', [
      companyUser.id,
      a.companyId,
    ]);
    await database.query('insert into user_sites (user_id, site_id) values ($1, $2)', [
      siteUser.id,
      a.siteId,
    ]);
  }

  const agent = await one<{ agent_id: number }>(
    database,
    `select agent_id from users where username = 'agent'`,
  );
  const company = await one<{ company_id: number }>(
    database,
    `select uc.company_id from user_companies uc join users u on u.id = uc.user_id
      where u.username = 'company' order by uc.company_id limit 1`,
  );
  const site = await one<{ site_id: number }>(
    database,
    `select us.site_id from user_sites us join users u on u.id = us.user_id
      where u.username = 'site' order by us.site_id limit 1`,
  );
  const otherCompany = await one<{ id: number }>(
    database,
    'select id from companies where agent_id = $1 and id <> $2 order by id limit 1',
    [agent.agent_id, company.company_id],
  );
  const companySite = await one<{ id: number }>(
    database,
    'select id from sites where company_id = $1 and id <> $2 order by id limit 1',
    [company.company_id, site.site_id],
  );
  const otherCompanySite = await one<{ id: number }>(
    database,
    'select id from sites where company_id = $1 and id <> $2 order by id limit 1',
    [otherCompany.id, site.site_id],
  );
  const outsider = await insertOrg(database, 'Outsider');
  return {
    agentId: agent.agent_id,
    companyId: company.company_id,
    otherCompanyId: otherCompany.id,
    siteId: site.site_id,
    companySiteId: companySite.id,
    otherCompanySiteId: otherCompanySite.id,
    outsider,
  };
}
