import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningServer, startServer } from '../src/harness.ts';
import { apiGet, apiSignIn, eventually, type SitePump } from '../src/journey.ts';

/**
 * Journeys through the HTTP API alone, as integrations and terminals use it: no browser, the real server process
 * (the one `process.execPath` runs: CI runs this file on every supported Node.js line, scripts/test-all.mjs).
 * Terminals report, the console's live stream hears of it, an alert is raised and acknowledged, a pump command
 * travels to the device's long-poll and back, and the scope and sign-out rules hold.
 */

interface Site {
  id: number;
  title: string;
}
interface Alert {
  id: number;
  event_type: number;
  text: string;
  acknowledged_by: string | null;
  note: string | null;
}

describe('the HTTP API without a browser', () => {
  let server: RunningServer | undefined;
  let agent: string;
  let agentId: number;
  /** Terminals of the demo fleet with a device token each, provisioned by the agent. */
  const devices: Array<{ id: number; siteId: number; token: string }> = [];

  const url = () => server!.url;
  const send = (pathname: string, init: { method?: string; auth?: string; body?: unknown } = {}) =>
    fetch(`${url()}${pathname}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.auth ? { Authorization: init.auth } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const device = (token: string, pathname: string, body?: unknown) =>
    send(`/api/device/v1/${pathname}`, { auth: `Device ${token}`, body });
  /** A terminal's device token, provisioned by the agent as an installer does. */
  const provision = async (terminalId: number) => {
    const res = await send(`/api/terminal/${terminalId}/device-token/`, {
      method: 'POST',
      auth: `JWT ${agent}`,
    });
    assert.equal(res.status, 200, `device token of terminal ${terminalId}`);
    return ((await res.json()) as { token: string }).token;
  };

  before(async () => {
    server = await startServer();
    agent = await apiSignIn(url(), 'agent');
    agentId = (await apiGet<{ agent: number }>(url(), agent, '/api/user/')).agent;
    const sites = await apiGet<Site[]>(url(), agent, `/api/agent/${agentId}/sites/`);
    for (const site of sites) {
      const terminals = await apiGet<Array<{ id: number }>>(url(), agent, `/api/site/${site.id}/terminals/`);
      for (const terminal of terminals) {
        if (devices.length >= 20) break;
        devices.push({ id: terminal.id, siteId: site.id, token: await provision(terminal.id) });
      }
    }
    assert.equal(devices.length, 20, 'the demo fleet has 20 terminals to provision');
  });

  after(async () => {
    await server?.stop();
  });

  it('answers 401 without a token and 403 outside the caller’s scope', async () => {
    assert.equal((await send('/api/user/')).status, 401);
    assert.equal((await device('fcd_not-a-token-at-all-0000', 'telemetry', { battery_life: 5 })).status, 401);
    const company = await apiSignIn(url(), 'company');
    const mine = await apiGet<{ companies: Array<{ id: number }> }>(url(), company, '/api/user/');
    const theirs = await apiGet<{ companies: Array<{ id: number }> }>(url(), agent, '/api/user/');
    const other = theirs.companies.find((c) => !mine.companies.some((m) => m.id === c.id));
    assert.ok(other, 'the agent reaches a company the company user does not');
    const res = await send(`/api/company/${other.id}/sites/`, { auth: `JWT ${company}` });
    assert.equal(res.status, 403);
    assert.ok(((await res.json()) as { data: { errors: string[] } }).data.errors.length > 0);
  });

  it('twenty terminals report at once: every reading is stored and the live stream hears of them', async () => {
    const abort = new AbortController();
    const stream = await fetch(`${url()}/api/live`, {
      headers: { Authorization: `JWT ${agent}` },
      signal: abort.signal,
    });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    const heard = new Set<number>();
    const reading = (async () => {
      const decoder = new TextDecoder();
      let text = '';
      for await (const chunk of stream.body as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        for (;;) {
          const end = text.indexOf('\n\n');
          if (end < 0) break;
          const message = text.slice(0, end);
          text = text.slice(end + 2);
          const data = /^data: (.*)$/m.exec(message)?.[1];
          if (!/^event: change$/m.test(message) || !data) continue;
          for (const c of JSON.parse(data) as Array<{ kind: string; terminal?: number }>) {
            if (c.kind === 'telemetry' && c.terminal !== undefined) heard.add(c.terminal);
          }
          if (devices.every((d) => heard.has(d.id))) return;
        }
      }
    })().catch((err: unknown) => {
      if (!abort.signal.aborted) throw err;
    });

    const answers = await Promise.all(
      devices.map((d, i) => device(d.token, 'telemetry', { battery_life: 40 + i, flash_left: 33 })),
    );
    for (const res of answers) {
      assert.equal(res.status, 202);
      assert.deepEqual(await res.json(), { accepted: 1 });
    }
    try {
      await Promise.race([
        reading,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('the stream did not hear of every write')), 15_000),
        ),
      ]);
    } finally {
      abort.abort();
    }
    assert.deepEqual(
      devices.filter((d) => !heard.has(d.id)).map((d) => d.id),
      [],
    );
    // The site's terminals answer their latest battery reading.
    const d0 = devices[0];
    const battery = await apiGet<Array<{ life: number; terminal: { terminal_id: string } }>>(
      url(),
      agent,
      `/api/site/${d0.siteId}/terminals/battery/`,
    );
    assert.ok(
      battery.some((b) => b.life === 40),
      `battery of site ${d0.siteId}: ${JSON.stringify(battery)}`,
    );
  });

  it('a hardware event becomes an alert that the agent acknowledges with a note', async () => {
    const d = devices[1];
    const text = `Printer: paper jam ${Date.now()}`;
    const res = await device(d.token, 'events', { event_type: 2, text });
    assert.equal(res.status, 202);
    const alert = await eventually('the alert in the agent’s list', async () => {
      const list = await apiGet<Alert[]>(url(), agent, `/api/alerts/agent/${agentId}/?event_type=2`);
      return list.find((a) => a.text === text);
    });
    const ack = await send(`/api/alerts/${alert.id}/ack/`, {
      auth: `JWT ${agent}`,
      body: { note: 'on my way' },
    });
    assert.equal(ack.status, 200);
    const acked = (await ack.json()) as Alert;
    assert.equal(acked.id, alert.id);
    assert.equal(acked.acknowledged_by, 'agent');
    assert.equal(acked.note, 'on my way');
  });

  it('a pump turned on reaches its terminal’s long-poll; the confirmation turns it on', async () => {
    const user = await apiGet<{ companies: Array<{ id: number }> }>(url(), agent, '/api/user/');
    let found: { pump: SitePump; token: string; siteId: number } | undefined;
    for (const company of user.companies) {
      for (const site of await apiGet<Site[]>(url(), agent, `/api/company/${company.id}/sites/`)) {
        const off = (await apiGet<SitePump[]>(url(), agent, `/api/site/${site.id}/pumps/`)).filter(
          (p) => p.status === 0 && p.last_synapse_status === 0,
        );
        if (!off.length) continue;
        for (const terminal of await apiGet<Array<{ id: number }>>(
          url(),
          agent,
          `/api/site/${site.id}/terminals/`,
        )) {
          const token = devices.find((d) => d.id === terminal.id)?.token ?? (await provision(terminal.id));
          const me = await device(token, 'me');
          const carried = ((await me.json()) as { pumps: Array<{ pump_no: number }> }).pumps.map(
            (p) => p.pump_no,
          );
          const pump = off.find((p) => carried.includes(p.pump_no));
          if (pump) {
            found = { pump, token, siteId: site.id };
            break;
          }
        }
        if (found) break;
      }
      if (found) break;
    }
    assert.ok(found, 'a pump that is off in the demo fleet');
    const { pump, token } = found;
    // Nothing queued for the terminal: the long-poll below can only be answered by the agent's command.
    const queued = await device(token, 'commands?wait=0');
    assert.deepEqual(await queued.json(), []);
    const poll = device(token, 'commands?wait=20');
    const turn = await send(`/api/pump/${pump.id}/turn/on/`, { method: 'POST', auth: `JWT ${agent}` });
    assert.equal(turn.status, 200, await turn.clone().text());
    assert.equal(((await turn.json()) as { error: boolean }).error, false);
    const again = await send(`/api/pump/${pump.id}/turn/on/`, { method: 'POST', auth: `JWT ${agent}` });
    assert.equal(again.status, 409, 'a pending pump takes no second command');

    const polled = await poll;
    assert.equal(polled.status, 200);
    const commands = (await polled.json()) as Array<{ id: number; kind: string; pump_no?: number }>;
    assert.equal(commands.length, 1);
    assert.equal(commands[0].kind, 'pump_on');
    assert.equal(commands[0].pump_no, pump.pump_no);

    const status = await device(token, 'pumps/status', {
      pump_no: pump.pump_no,
      status: 1,
      code: 4000,
      text: 'Normal',
    });
    assert.equal(status.status, 202);
    const ack = await device(token, `commands/${commands[0].id}/ack`, { result: 'ok' });
    assert.equal(ack.status, 200);
    assert.deepEqual(await ack.json(), { id: commands[0].id, state: 'confirmed' });
    const pumps = await apiGet<SitePump[]>(url(), agent, `/api/site/${found.siteId}/pumps/`);
    assert.deepEqual(
      pumps.filter((p) => p.id === pump.id).map((p) => [p.status, p.last_synapse_status]),
      [[1, 1]],
    );
  });

  it('a signed-out token is refused at once', async () => {
    const token = await apiSignIn(url(), 'site');
    await apiGet(url(), token, '/api/user/');
    const out = await send('/api/auth/logout', { method: 'DELETE', auth: `JWT ${token}` });
    assert.ok(out.ok, `logout: ${out.status}`);
    assert.equal((await send('/api/user/', { auth: `JWT ${token}` })).status, 401);
  });
});
