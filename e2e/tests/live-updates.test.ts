import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiGet, apiSignIn, eventually, journey, shot, widget } from '../src/journey.ts';

/**
 * The console on its stream (docs/product.md "Live updates", decision 0015): the header says Live, and a device event
 * shows in the alerts widget and the bell without a reload or a click. While the stream is live nothing
 * polls, so only the stream's change can have refetched them.
 */

const live = journey({ timeout: 30_000 });
let token: string;

const get = <T>(pathname: string) => apiGet<T>(live.server.url, token, pathname);

async function deviceToken(terminalId: number): Promise<string> {
  const res = await fetch(`${live.server.url}/api/terminal/${terminalId}/device-token/`, {
    method: 'POST',
    headers: { authorization: `JWT ${token}` },
  });
  const body = await res.text();
  assert.equal(res.status, 200, body);
  return (JSON.parse(body) as { token: string }).token;
}

describe('the console on the stream', () => {
  before(async () => {
    token = await apiSignIn(live.server.url, 'agent');
  });

  it('says Live, and a device event reaches the alerts widget and the bell without touching anything', async () => {
    const user = await get<{ companies: { id: number }[] }>('/api/user/');
    const sites = await get<{ id: number }[]>(`/api/company/${user.companies[0]!.id}/sites/`);
    const terminals = await get<{ id: number }[]>(`/api/site/${sites[0]!.id}/terminals/`);
    const device = await deviceToken(terminals[0]!.id);

    const p = await live.signedIn('agent', { width: 1400, height: 1000 });
    await p.getByRole('status', { name: 'Live' }).waitFor();
    const alerts = widget(p, 'Alerts');
    await alerts
      .getByRole('button', { name: /^Ack: / })
      .first()
      .waitFor();
    const bell = p.locator('.fc-bell-count .mantine-Indicator-indicator').first();
    const before = Number(await bell.textContent());

    // A critical event sorts first in the widget (severity, then newest).
    const text = `Power supply failure: e2e live ${Date.now() % 100_000}`;
    const res = await fetch(`${live.server.url}/api/device/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Device ${device}` },
      body: JSON.stringify({ event_type: 14, text }),
    });
    assert.equal(res.status, 202, await res.text());

    await alerts.getByRole('button', { name: `Ack: ${text}` }).waitFor();
    await eventually('the bell to count the new alert', async () =>
      Number(await bell.textContent()) > before ? true : undefined,
    );
    await shot(p, 'live-console-alert', 'view');
  });
});
