import { HARDWARE_EVENT_TYPES } from '@forecourt/contract/events';
import * as logRows from '@forecourt/contract/logs';
import { parseCsv } from '@forecourt/test-support/csv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { postgresUnavailable, sharedDemoApp, type TestApp } from './helper.ts';
import { fill, LOG_ROUTES } from './read-routes-table.ts';

describe.skipIf(postgresUnavailable)('log screens', () => {
  const s = sharedDemoApp();
  const get: TestApp['get'] = (...args) => s.t.get(...args);

  it('pages newest first with before cursors until the log is exhausted', async () => {
    const all = z
      .array(logRows.AlertLogEntrySchema)
      .parse((await get(s.site, '/api/site/1/alert/log/?limit_to=1000')).json());
    expect(all.length).toBeGreaterThan(30);
    const seen: number[] = [];
    let url: string | null = '/api/site/1/alert/log/?limit_to=25';
    let pages = 0;
    while (url) {
      const res = await get(s.site, url);
      expect(res.statusCode).toBe(200);
      const rows = z.array(logRows.AlertLogEntrySchema).parse(res.json());
      seen.push(...rows.map((r) => r.id));
      pages++;
      const next = res.headers['x-next-cursor'] as string | undefined;
      if (rows.length === 25) {
        expect(next).toBe(rows.at(-1)!.cursor);
        const link = res.headers.link as string;
        expect(link).toMatch(/rel="next"/);
        url = /<([^>]+)>/.exec(link)![1]!;
        expect(url).toContain(`before=${next}`);
        expect(url).toContain('limit_to=25');
      } else {
        expect(next).toBeUndefined();
        url = null;
      }
    }
    expect(pages).toBe(Math.floor(all.length / 25) + 1);
    expect(seen).toEqual(all.map((r) => r.id));
  });

  it('answers CSV with Accept: text/csv or format=csv: a header and one line per row', async () => {
    const json = z
      .array(logRows.AlertLogEntrySchema)
      .parse((await get(s.company, '/api/company/1/alert/log/?limit_to=40')).json());
    const viaAccept = await get(s.company, '/api/company/1/alert/log/?limit_to=40', { accept: 'text/csv' });
    const viaFormat = await get(s.company, '/api/company/1/alert/log/?limit_to=40&format=csv');
    for (const res of [viaAccept, viaFormat]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/attachment; filename="company-alert-log.csv"/);
      const rows = parseCsv(res.body);
      expect(rows[0]).toEqual([
        'id',
        'started_at',
        'created_at',
        'event_type',
        'issue',
        'text',
        'terminal',
        'site',
        'company',
        'severity',
        'state',
        'cleared_at',
        'acknowledged_at',
        'acknowledged_by',
        'note',
        'rule_id',
        'silenced',
        'maintenance_id',
      ]);
      expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(json.map((r) => r.id));
      expect(rows.slice(1).map((r) => r[5])).toEqual(json.map((r) => r.text));
    }
    expect(viaAccept.body).toBe(viaFormat.body);
    expect(viaAccept.headers['x-next-cursor']).toBe(json.at(-1)!.cursor);
    const jsonAgain = await get(s.company, '/api/company/1/alert/log/?limit_to=40', {
      accept: 'application/json',
    });
    expect(jsonAgain.headers['content-type']).toMatch(/application\/json/);
  });

  it('neutralises device text that a spreadsheet would run as a formula', async () => {
    const provisioned = await s.t.as(s.agent, { method: 'POST', url: '/api/terminal/1/device-token/' });
    expect(provisioned.statusCode).toBe(200);
    // (Leading tabs and carriage returns never reach a cell: the device API trims text; see packages/contract.)
    const hostile = ['=HYPERLINK("http://evil.example","open")', '+1+1', '-1+1', '@SUM(A1)'];
    const sent = await s.t.app.inject({
      method: 'POST',
      url: '/api/device/v1/events',
      headers: { authorization: `Device ${provisioned.json().token}` },
      payload: hostile.map((text) => ({ event_type: 1, text })),
    });
    expect(sent.statusCode).toBe(202);
    const res = await get(s.agent, '/api/agent/1/alert/log/?limit_to=50&format=csv');
    expect(res.statusCode).toBe(200);
    const texts = parseCsv(res.body.replace(/\r\n/g, '\n')).map((r) => r[5]);
    for (const text of hostile) {
      expect(texts).toContain(`'${text}`);
      expect(texts).not.toContain(text);
    }
    // The JSON keeps the text as the device sent it.
    const json = (await get(s.agent, '/api/agent/1/alert/log/?limit_to=50')).json() as Array<{
      text: string;
    }>;
    expect(json.map((r) => r.text)).toEqual(expect.arrayContaining(hostile));
  });

  it.each(LOG_ROUTES.map((r) => [r.path, r] as const))('%s: CSV with a header row', async (_p, route) => {
    const res = await get(s.agent, `${fill(route.path, 1, 1)}?limit_to=3&format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    const json = (await get(s.agent, `${fill(route.path, 1, 1)}?limit_to=3`)).json() as Array<{ id: number }>;
    expect(json.length).toBeGreaterThan(0);
    const rows = parseCsv(res.body);
    expect(rows[0]!.length).toBeGreaterThan(3);
    expect(rows[0]![0]).toBe('id');
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(json.map((r) => r.id));
  });

  it('filters the hardware log to hardware event types, narrowed by event_type', async () => {
    const rows = z
      .array(logRows.AlertLogEntrySchema)
      .parse((await get(s.agent, '/api/agent/1/terminal/hardware/log/?limit_to=500')).json());
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.every((r) => HARDWARE_EVENT_TYPES.includes(r.event_type))).toBe(true);
    expect(new Set(rows.map((r) => r.event_type)).size).toBe(6);
    const printers = z
      .array(logRows.AlertLogEntrySchema)
      .parse(
        (
          await get(s.company, '/api/company/1/site/1/terminal/hardware/log/?event_type=2&event_type=5')
        ).json(),
      );
    expect(printers.length).toBeGreaterThan(0);
    expect(printers.every((r) => r.event_type === 2 && r.site_id === 1)).toBe(true);
    const none = await get(s.company, '/api/company/1/site/1/terminal/hardware/log/?event_type=5');
    expect(none.json()).toEqual([]);
  });

  it('refuses a company/site hardware log whose site is not in that company', async () => {
    expect((await get(s.agent, '/api/company/2/site/1/terminal/hardware/log/')).statusCode).toBe(404);
    expect((await get(s.company, '/api/company/2/site/9/terminal/hardware/log/')).statusCode).toBe(403);
    expect((await get(s.site, '/api/company/1/site/1/terminal/hardware/log/')).statusCode).toBe(403);
  });

  it('searches case-insensitively and filters by time window and terminal', async () => {
    const hits = z
      .array(logRows.AlertLogEntrySchema)
      .parse((await get(s.agent, '/api/agent/1/alert/log/?q=CARD%20READER&limit_to=1000')).json());
    expect(hits.length).toBeGreaterThan(0);
    expect(
      hits.every((r) => /card reader/i.test(`${r.text} ${r.site_name} ${r.customer_name} ${r.number}`)),
    ).toBe(true);
    const byTown = z
      .array(logRows.AlertLogEntrySchema)
      .parse((await get(s.agent, '/api/agent/1/alert/log/?q=glasgow&limit_to=1000')).json());
    expect(byTown.length).toBeGreaterThan(0);
    expect(byTown.every((r) => r.site_name.startsWith('Glasgow'))).toBe(true);
    const literal = await get(s.agent, '/api/agent/1/alert/log/?q=100%25_');
    expect(literal.json()).toEqual([]);

    const to = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const from = new Date(Date.now() - 4 * 86_400_000).toISOString();
    const window = z
      .array(logRows.AlertLogEntrySchema)
      .parse((await get(s.agent, `/api/agent/1/alert/log/?from=${from}&to=${to}&limit_to=1000`)).json());
    expect(window.length).toBeGreaterThan(0);
    expect(window.every((r) => r.started_at >= from && r.started_at < to)).toBe(true);

    const byNumber = z
      .array(logRows.AlertLogEntrySchema)
      .parse((await get(s.site, '/api/site/1/alert/log/?terminal=10010002&limit_to=1000')).json());
    const byId = z
      .array(logRows.AlertLogEntrySchema)
      .parse((await get(s.site, '/api/site/1/alert/log/?terminal=2&limit_to=1000')).json());
    expect(byNumber.length).toBeGreaterThan(0);
    expect(byNumber.every((r) => r.number === '10010002')).toBe(true);
    expect(byId).toEqual(byNumber);
  });

  it('lists connectivity changes, off only with status=off or offline=true', async () => {
    const all = z
      .array(logRows.ConnectivityLogEntrySchema)
      .parse((await get(s.company, '/api/company/1/connectivity/log/?limit_to=1000')).json());
    expect(new Set(all.map((r) => r.status))).toEqual(new Set(['on', 'off']));
    const off = z
      .array(logRows.ConnectivityLogEntrySchema)
      .parse((await get(s.company, '/api/company/1/connectivity/log/?limit_to=1000&status=off')).json());
    expect(off).toEqual(all.filter((r) => r.status === 'off'));
    const offline = (
      await get(s.company, '/api/company/1/connectivity/log/?limit_to=1000&offline=true')
    ).json();
    expect(offline).toEqual(off.map((r) => ({ ...r })));
  });

  it('shows reboots with their state history, filterable by state', async () => {
    const rows = z
      .array(logRows.RebootLogEntrySchema)
      .parse((await get(s.agent, '/api/agent/1/terminal/reboot/log/?limit_to=1000')).json());
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((r) => r.kind === 'reboot' && r.history[0]!.state === 'queued')).toBe(true);
    const done = rows.find((r) => r.state === 'confirmed')!;
    expect(done.status).toBe('done');
    expect(done.history.map((h) => h.state)).toEqual(['queued', 'sent', 'confirmed']);
    const failed = z
      .array(logRows.RebootLogEntrySchema)
      .parse(
        (await get(s.agent, '/api/agent/1/reboot/log?state=failed&state=timed_out&limit_to=1000')).json(),
      );
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.state === 'failed' || r.state === 'timed_out')).toBe(true);
    const siteRows = z
      .array(logRows.RebootLogEntrySchema)
      .parse((await get(s.site, '/api/site/1/reboot/log')).json());
    expect(siteRows.every((r) => r.site_id === 1)).toBe(true);
  });

  it('shows pump activations and pump status entries of a site', async () => {
    const acts = z
      .array(logRows.PumpActivationLogRowSchema)
      .parse((await get(s.site, '/api/site/1/pump/activation/log/?limit_to=1000')).json());
    expect(acts.length).toBeGreaterThan(0);
    expect(
      acts.every((r) => r.site === 'Leeds Kirkstall Road' && ['pump_on', 'pump_off'].includes(r.kind)),
    ).toBe(true);
    const pumpNo = acts[0]!.pump_no;
    const one = z
      .array(logRows.PumpActivationLogRowSchema)
      .parse((await get(s.site, `/api/site/1/pump/activation/log/?pump=${pumpNo}&limit_to=1000`)).json());
    expect(one.every((r) => r.pump_no === pumpNo)).toBe(true);

    const status = z
      .array(logRows.PumpStatusLogRowSchema)
      .parse((await get(s.site, '/api/site/1/pump/status/log/?abnormal=true&limit_to=1000')).json());
    expect(status.length).toBeGreaterThan(0);
    expect(status.every((r) => r.status !== 4000)).toBe(true);
    const pump2 = z
      .array(logRows.PumpStatusLogRowSchema)
      .parse((await get(s.site, '/api/site/1/pump/status/log/?pump=2&limit_to=1000')).json());
    expect(pump2.length).toBeGreaterThan(0);
    expect(pump2.every((r) => r.pump_no === 2)).toBe(true);
  });

  it('shows shocks of a company with a minimum level', async () => {
    const rows = z
      .array(logRows.ShockLogEntrySchema)
      .parse((await get(s.company, '/api/company/1/shock/alert/log/?min=4&limit_to=1000')).json());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.reading >= 4 && r.company_id === 1)).toBe(true);
    expect(rows.every((r) => r.terminal.card_acceptor_name.startsWith(`${r.site_title}/`))).toBe(true);
  });

  it('shows battery readings over time for the terminals of a site', async () => {
    const rows = z
      .array(logRows.BatteryLogEntrySchema)
      .parse((await get(s.site, '/api/site/1/terminal/battery/log/?terminal=10010001&limit_to=200')).json());
    expect(rows).toHaveLength(200);
    expect(rows.every((r) => r.terminal.terminal_id === '10010001')).toBe(true);
    const times = rows.map((r) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const [latest] = await s.t.database.query<{ battery_life: number }>(
      'select battery_life from terminals where id = 1',
    );
    expect(rows[0]!.life).toBe(latest!.battery_life);
  });

  it('rejects bad paging and filter values with a 400 naming the parameter', async () => {
    const cases: [string, RegExp][] = [
      ['/api/agent/1/reboot/log/?before=abc', /before/],
      ['/api/agent/1/reboot/log/?limit_to=0', /limit_to/],
      ['/api/agent/1/reboot/log/?limit_to=1001', /limit_to/],
      ['/api/agent/1/reboot/log/?from=yesterday', /from/],
      ['/api/agent/1/reboot/log/?to=0000-01-01T00:00:00Z', /to/],
      ['/api/agent/1/reboot/log/?format=xml', /format/],
      ['/api/agent/1/reboot/log/?state=done', /state/],
      ['/api/agent/1/alert/log/?event_type=x', /event_type/],
      ['/api/site/1/pump/status/log/?pump=0', /pump/],
      ['/api/company/1/shock/log/?min=-1', /min/],
    ];
    for (const [url, name] of cases) {
      const res = await get(s.agent, url);
      const qs = url;
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().data.errors.join(' '), qs).toMatch(name);
    }
  });
});
