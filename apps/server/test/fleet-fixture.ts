import {
  CommandAckSchema,
  DeviceEventSchema,
  DevicePumpStatusSchema,
  DeviceShockSchema,
  DeviceTransactionSchema,
  TelemetryPointSchema,
} from '@forecourt/contract/device';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/client.ts';
import { buildTestApp, type SecondNode, startSecondNode, type TestApp } from './helper.ts';

async function one<T>(database: Database, sql: string, params: unknown[] = []): Promise<T> {
  const rows = await database.query<T>(sql, params);
  if (!rows[0]) throw new Error(`fixture query found nothing: ${sql}`);
  return rows[0];
}

export interface PumpRef {
  id: number;
  pumpNo: number;
  terminalId: number;
  siteId: number;
}

export interface FleetFixture {
  /** The `site` user's site, its pump controller terminal and two of its pumps (set off/off and on/on). */
  siteId: number;
  controllerId: number;
  /** Another terminal of the same site (carries no pumps). */
  plainTerminalId: number;
  offPump: PumpRef;
  onPump: PumpRef;
  /** A site of the `company` user's company that the `site` user does not reach, with a terminal and a pump. */
  companySite: { siteId: number; terminalId: number; pump: PumpRef };
  /** A site of another company of the demo agent (outside the `company` user). */
  otherCompanySite: { siteId: number; terminalId: number; pump: PumpRef };
  /** A second agent's site, terminal and pump: outside every demo user. */
  outsider: { siteId: number; terminalId: number; pump: PumpRef };
}

async function pumpAt(database: Database, siteId: number): Promise<PumpRef> {
  const p = await one<{ id: number; pump_no: number; terminal_id: number }>(
    database,
    'select id, pump_no, terminal_id from pumps where site_id = $1 order by pump_no limit 1',
    [siteId],
  );
  return { id: p.id, pumpNo: p.pump_no, terminalId: p.terminal_id, siteId };
}

/** Picks places from the demo fleet for command and device tests, and adds an outsider agent's site. */
export async function fleetFixture(database: Database): Promise<FleetFixture> {
  const { site_id: siteId } = await one<{ site_id: number }>(
    database,
    `select us.site_id from user_sites us join users u on u.id = us.user_id
      where u.username = 'site' order by us.site_id limit 1`,
  );
  const { company_id: companyId } = await one<{ company_id: number }>(
    database,
    `select uc.company_id from user_companies uc join users u on u.id = uc.user_id
      where u.username = 'company' order by uc.company_id limit 1`,
  );
  const pumps = await database.query<{ id: number; pump_no: number; terminal_id: number }>(
    'select id, pump_no, terminal_id from pumps where site_id = $1 order by pump_no limit 2',
    [siteId],
  );
  if (pumps.length < 2) throw new Error('the site user’s site needs two pumps');
  const [off, on] = pumps;
  await database.query('update pumps set status = 0, last_synapse_status = 0 where id = $1', [off.id]);
  await database.query('update pumps set status = 1, last_synapse_status = 1 where id = $1', [on.id]);
  const plain = await one<{ id: number }>(
    database,
    'select id from terminals where site_id = $1 and id <> $2 order by id limit 1',
    [siteId, off.terminal_id],
  );

  const companySiteRow = await one<{ id: number }>(
    database,
    `select s.id from sites s where s.company_id = $1 and s.id <> $2
        and exists (select 1 from pumps p where p.site_id = s.id) order by s.id limit 1`,
    [companyId, siteId],
  );
  const companyPump = await pumpAt(database, companySiteRow.id);
  const otherRow = await one<{ id: number }>(
    database,
    `select s.id from sites s where s.company_id <> $1
        and exists (select 1 from pumps p where p.site_id = s.id) order by s.id limit 1`,
    [companyId],
  );
  const otherPump = await pumpAt(database, otherRow.id);

  const agent = await one<{ id: number }>(
    database,
    `insert into agents (name) values ('Outsider') returning id`,
  );
  const company = await one<{ id: number }>(
    database,
    `insert into companies (agent_id, name) values ($1, 'Outsider Fuels') returning id`,
    [agent.id],
  );
  const site = await one<{ id: number }>(
    database,
    `insert into sites (company_id, agent_id, title, number, city, lat, lng)
     values ($1, $2, 'Outsider Forecourt', '990001', 'Leeds', 53.8, -1.55) returning id`,
    [company.id, agent.id],
  );
  const terminal = await one<{ id: number }>(
    database,
    `insert into terminals (site_id, company_id, agent_id, terminal_no, card_acceptor_name, lat, lng, pump_controller)
     values ($1, $2, $3, '9900010001', 'Outsider Forecourt/Leeds', 53.8, -1.55, true) returning id`,
    [site.id, company.id, agent.id],
  );
  const pump = await one<{ id: number }>(
    database,
    'insert into pumps (site_id, terminal_id, pump_no) values ($1, $2, 1) returning id',
    [site.id, terminal.id],
  );

  return {
    siteId,
    controllerId: off.terminal_id,
    plainTerminalId: plain.id,
    offPump: { id: off.id, pumpNo: off.pump_no, terminalId: off.terminal_id, siteId },
    onPump: { id: on.id, pumpNo: on.pump_no, terminalId: on.terminal_id, siteId },
    companySite: { siteId: companySiteRow.id, terminalId: companyPump.terminalId, pump: companyPump },
    otherCompanySite: { siteId: otherRow.id, terminalId: otherPump.terminalId, pump: otherPump },
    outsider: {
      siteId: site.id,
      terminalId: terminal.id,
      pump: { id: pump.id, pumpNo: 1, terminalId: terminal.id, siteId: site.id },
    },
  };
}

export interface FleetSession {
  t: TestApp;
  f: FleetFixture;
  /** The demo users' tokens. */
  agent: string;
  company: string;
  site: string;
  /** The demo agent, and the first company of the `company` user. */
  agentId: number;
  companyId: number;
}

/**
 * What most route suites start from: the app on a fresh demo database, the fleet fixture, the three demo users
 * signed in, and the ids their scopes are written with.
 */
export async function openFleetSession(
  env: Record<string, string> = {},
  opts: { settleCommands?: boolean } = {},
): Promise<FleetSession> {
  const t = await buildTestApp(env);
  const f = await fleetFixture(t.database);
  if (opts.settleCommands) await settleCommands(t.database);
  const { agent, company, site } = await t.demoTokens();
  const agentId = Number((await t.get(agent, '/api/user/')).json().agent);
  const companyId = Number((await t.get(company, '/api/user/')).json().companies[0].id);
  return { t, f, agent, company, site, agentId, companyId };
}

export interface TwoNodeSession extends FleetSession {
  /** A second node on the same database (`t.app` is the first), and its app. */
  nodeB: SecondNode;
  b: FastifyInstance;
  /** Closes the second node, then the first and the database. */
  close(): Promise<void>;
}

/** The fleet session, and a second node on its database for writing on one node and reading on the other. */
export async function openFleetOnTwoNodes(opts: { settleCommands?: boolean } = {}): Promise<TwoNodeSession> {
  const s = await openFleetSession({}, opts);
  const nodeB = await startSecondNode(s.t);
  const close = async () => {
    await nodeB.close();
    await s.t.close();
  };
  return { ...s, nodeB, b: nodeB.app, close };
}

/** Cancels whatever commands the demo data left open, so a test starts from settled pumps. */
export async function settleCommands(database: Database): Promise<void> {
  await database.query(
    `update commands set state = 'expired', completed_at = now() where state in ('queued', 'sent')`,
  );
}

/**
 * Makes the database refuse a telemetry row with this battery reading, as it is inserted or only when its
 * transaction commits; the answer lifts the refusal.
 */
export async function refuseBatteryReading(
  database: Database,
  battery: number,
  when: 'insert' | 'commit',
): Promise<() => Promise<void>> {
  await database.query(`
    create or replace function fc_test_refuse() returns trigger language plpgsql as $$
    begin
      if new.battery_life = ${Number(battery)} then raise exception 'refused by the test'; end if;
      return new;
    end $$`);
  await database.query(
    when === 'insert'
      ? 'create trigger fc_test_refuse before insert on telemetry for each row execute function fc_test_refuse()'
      : `create constraint trigger fc_test_refuse after insert on telemetry
          deferrable initially deferred for each row execute function fc_test_refuse()`,
  );
  return async () => {
    await database.query('drop trigger fc_test_refuse on telemetry');
    await database.query('drop function fc_test_refuse()');
  };
}

/** A call to the device API (`/api/device/v1/<url>`) with a terminal's device token. */
export function deviceCall(
  t: TestApp,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
) {
  return t.app.inject({
    method,
    url: `/api/device/v1/${url}`,
    headers: { authorization: `Device ${token}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** A terminal's device token, provisioned by a user who may (`POST /api/terminal/{id}/device-token/`). */
export async function provisionDevice(t: TestApp, userToken: string, terminalId: number): Promise<string> {
  const res = await t.as(userToken, { method: 'POST', url: `/api/terminal/${terminalId}/device-token/` });
  return DeviceTokenResponseSchema.parse(res.json()).token;
}

/** Every field a body of the device API takes, read from the contract's schemas (for fuzzing them). */
export const DEVICE_FIELDS: readonly string[] = [
  ...new Set(
    [
      TelemetryPointSchema,
      DeviceEventSchema,
      DeviceShockSchema,
      DeviceTransactionSchema,
      DevicePumpStatusSchema,
      CommandAckSchema,
    ].flatMap((schema) => Object.keys(schema.shape)),
  ),
];
