import type { LiveChange } from '@forecourt/contract/live';
import type { Pump } from '@forecourt/contract/pumps';
import type { Command } from '@forecourt/contract/terminals';
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLiveStream } from '../../lib/live-stream.ts';
import { liveStateStore } from '../../lib/live-stream-state.ts';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { type SseServer, startSseServer } from '../../testing/sse-server.ts';
import { PumpActivation } from './components/pump-activation.tsx';
import { decidePumpClick } from './pump-click.ts';

const SITE = 101;

function pump(overrides: Partial<Pump> = {}): Pump {
  return { id: 1, pump_no: 1, site: 'Leeds Road', status: 0, last_synapse_status: 0, ...overrides };
}

function command(overrides: Partial<Command> = {}): Command {
  const at = '2024-05-01T10:00:00.000Z';
  return {
    id: 900,
    kind: 'pump_on',
    terminal_id: 5,
    terminal_number: '10010002',
    site_id: SITE,
    pump_id: 1,
    pump_no: 1,
    reboot_type: null,
    state: 'queued',
    requested_by: 'Alex Agent',
    created_at: at,
    updated_at: at,
    expires_at: '2024-05-01T10:05:00.000Z',
    detail: null,
    history: [{ state: 'queued', at, detail: 'Requested by Alex Agent' }],
    ...overrides,
  };
}

// The stream talks HTTP to a real SSE server; the API calls go to the fetch mock.
const realFetch = globalThis.fetch;
let server: SseServer | null = null;
let stopStream: () => void = () => {};

/** Opens the console's stream (lib/live-stream.ts) on the widget's query client. */
async function openStream(client: Parameters<typeof startLiveStream>[0]['client']) {
  server = await startSseServer();
  stopStream = startLiveStream({ client, url: server.url, token: () => 'token', fetch: realFetch });
  await waitFor(() => expect(liveStateStore.get()).toBe('live'));
  return server;
}

/** The device's word on pump 1 of the site, as the server streams it. */
const pumpChange = (id: number): LiveChange => ({
  id,
  kind: 'pump',
  agent_id: 7,
  company_id: 11,
  site_id: SITE,
  terminal: 5,
  pump: 1,
  at: '2024-05-01T10:00:04.000Z',
});

const tile = (n: number) => screen.getByRole('article', { name: new RegExp(`^Pump ${n} –`) });
const switchOf = (n: number) => within(tile(n)).getByRole('switch', { name: `Pump ${n} switch` });

beforeEach(() => {
  notifications.clean();
});

afterEach(async () => {
  stopStream();
  stopStream = () => {};
  await server?.close();
  server = null;
  liveStateStore.set('off');
  vi.unstubAllGlobals();
});

describe('decidePumpClick (docs/product.md#pump-state-machine)', () => {
  it('turns an off pump on, an on pump off, ignores pending ones and reports a missing pump', () => {
    expect(decidePumpClick(pump({ status: 0, last_synapse_status: 0 }))).toEqual({
      type: 'turn',
      target: 'on',
    });
    expect(decidePumpClick(pump({ status: 1, last_synapse_status: 1 }))).toEqual({
      type: 'turn',
      target: 'off',
    });
    expect(decidePumpClick(pump({ status: 1, last_synapse_status: 0 }))).toEqual({ type: 'ignore' });
    expect(decidePumpClick(pump({ status: 0, last_synapse_status: 1 }))).toEqual({ type: 'ignore' });
    expect(decidePumpClick(pump(), true)).toEqual({ type: 'ignore' });
    expect(decidePumpClick(undefined)).toEqual({ type: 'not_found' });
  });
});

describe('PumpActivation', () => {
  it('draws one tile per pump: site, number, ON/OFF, the P. marker while pending and the switch position', async () => {
    mockFetch({
      [`GET /api/site/${SITE}/pumps/`]: json([
        pump({ id: 1, pump_no: 1, status: 1, last_synapse_status: 1 }),
        pump({ id: 2, pump_no: 2, status: 0, last_synapse_status: 0 }),
        pump({ id: 3, pump_no: 3, status: 1, last_synapse_status: 0 }),
        pump({ id: 4, pump_no: 4, status: 0, last_synapse_status: 1 }),
      ]),
    });
    renderWithProviders(<PumpActivation scope={{ kind: 'site', id: SITE }} />, { user: makeUser() });
    await screen.findByRole('article', { name: /^Pump 1 –/ });

    const expected = [
      { n: 1, text: 'ON', pending: false, position: 'top', checked: 'true' },
      { n: 2, text: 'OFF', pending: false, position: 'bottom', checked: 'false' },
      { n: 3, text: 'ON', pending: true, position: 'middle', checked: 'true' },
      { n: 4, text: 'OFF', pending: true, position: 'middle', checked: 'false' },
    ];
    for (const e of expected) {
      const t = tile(e.n);
      expect(within(t).getByText('Leeds Road')).toBeInTheDocument();
      expect(within(t).getByText(`Pump ${e.n}`)).toBeInTheDocument();
      expect(within(t).getByTestId('pump-onoff')).toHaveTextContent(e.text);
      expect(within(t).queryByText('P.') !== null).toBe(e.pending);
      const sw = switchOf(e.n);
      expect(sw).toHaveAttribute('data-position', e.position);
      expect(sw).toHaveAttribute('aria-checked', e.checked);
      expect(sw).toHaveAttribute('aria-disabled', String(e.pending));
    }
    expect(screen.getByRole('link', { name: 'Pump activation log' })).toHaveAttribute(
      'href',
      `/site/${SITE}/pump/activation/log/`,
    );
  });

  it("off: a click turns the pump on, says so, and stays pending until the device's confirmation arrives on the stream", async () => {
    let confirmed = false;
    const http = mockFetch({
      [`GET /api/site/${SITE}/pumps/`]: () =>
        json([pump({ status: confirmed ? 1 : 0, last_synapse_status: confirmed ? 1 : 0 })]),
      'POST /api/pump/1/turn/on/': json({
        error: false,
        error_text: '',
        pump: pump({ status: 1, last_synapse_status: 0 }),
        command_id: 900,
      }),
    });
    const { user, queryClient } = renderWithProviders(<PumpActivation scope={{ kind: 'site', id: SITE }} />, {
      user: makeUser(),
    });
    await screen.findByRole('article', { name: /^Pump 1 –/ });
    const sse = await openStream(queryClient);
    expect(switchOf(1)).toHaveAttribute('data-position', 'bottom');

    await user.click(switchOf(1));
    expect(await screen.findByText('Pump 1 is being turned on')).toBeInTheDocument();
    expect(http.find('POST', '/api/pump/1/turn/on/')).toHaveLength(1);
    // The request has returned, but the device has not confirmed: pending, knob in the middle.
    await waitFor(() => expect(switchOf(1)).toHaveAttribute('data-position', 'middle'));
    expect(within(tile(1)).getByText('P.')).toBeInTheDocument();

    // A click while pending does nothing.
    await user.click(switchOf(1));
    expect(http.find('POST', '/api/pump/1/turn/on/')).toHaveLength(1);
    expect(http.find('POST', '/api/pump/1/turn/off/')).toHaveLength(0);

    // The device confirms: the 'pump' change arrives on the stream, the pumps are read again, ON.
    confirmed = true;
    const readsBefore = http.find('GET', `/api/site/${SITE}/pumps/`).length;
    sse.change([pumpChange(31)]);
    await waitFor(() => expect(switchOf(1)).toHaveAttribute('data-position', 'top'));
    expect(http.find('GET', `/api/site/${SITE}/pumps/`).length).toBe(readsBefore + 1);
    expect(within(tile(1)).queryByText('P.')).not.toBeInTheDocument();
    expect(within(tile(1)).getByTestId('pump-onoff')).toHaveTextContent('ON');
    // Nothing watched the command on the side: the stream alone ended the pending state.
    expect(http.calls.filter((c) => c.url.pathname.startsWith('/api/command/'))).toHaveLength(0);
    expect(screen.queryByText(/was not switched/)).not.toBeInTheDocument();
  });

  it('on: a click turns the pump off with the info toast', async () => {
    const http = mockFetch({
      [`GET /api/site/${SITE}/pumps/`]: json([pump({ pump_no: 4, status: 1, last_synapse_status: 1 })]),
      'POST /api/pump/1/turn/off/': json({
        error: false,
        error_text: '',
        pump: pump({ pump_no: 4, status: 0, last_synapse_status: 1 }),
      }),
    });
    const { user } = renderWithProviders(<PumpActivation scope={{ kind: 'site', id: SITE }} />, {
      user: makeUser(),
    });
    await screen.findByRole('article', { name: /^Pump 4 –/ });
    await user.click(switchOf(4));
    expect(await screen.findByText('Pump 4 is being turned off')).toBeInTheDocument();
    expect(http.find('POST', '/api/pump/1/turn/off/')).toHaveLength(1);
    await waitFor(() => expect(switchOf(4)).toHaveAttribute('data-position', 'middle'));
    expect(within(tile(4)).getByTestId('pump-onoff')).toHaveTextContent('OFF');
  });

  it.each([
    ['pending on', 1, 0],
    ['pending off', 0, 1],
  ])('%s: a click sends nothing', async (_name, status, last) => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const http = mockFetch({
      [`GET /api/site/${SITE}/pumps/`]: json([pump({ status, last_synapse_status: last })]),
    });
    const { user } = renderWithProviders(<PumpActivation scope={{ kind: 'site', id: SITE }} />, {
      user: makeUser(),
    });
    await screen.findByRole('article', { name: /^Pump 1 –/ });
    await user.click(switchOf(1));
    // Every timer and pending promise the click could have started has run (the next poll is not due yet).
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(http.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    expect(screen.queryByText(/is being turned/)).not.toBeInTheDocument();
  });

  it('an answer with error shows the ERROR_ toast with error_text and the pump stays as it was', async () => {
    mockFetch({
      [`GET /api/site/${SITE}/pumps/`]: json([pump({ pump_no: 2 })]),
      'POST /api/pump/1/turn/on/': json({ error: true, error_text: 'Pump 2 has a command pending' }, 409),
    });
    const { user } = renderWithProviders(<PumpActivation scope={{ kind: 'site', id: SITE }} />, {
      user: makeUser(),
    });
    await screen.findByRole('article', { name: /^Pump 2 –/ });
    await user.click(switchOf(2));
    expect(await screen.findByText('Pump 2 has a command pending')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.queryByText(/is being turned/)).not.toBeInTheDocument();
    expect(switchOf(2)).toHaveAttribute('data-position', 'bottom');
  });

  it('a command the device fails is reported when the pump leaves pending on the stream, and the pump goes back', async () => {
    let failed = false;
    let requested = false;
    mockFetch({
      [`GET /api/site/${SITE}/pumps/`]: () =>
        json([pump({ status: requested && !failed ? 1 : 0, last_synapse_status: 0 })]),
      'POST /api/pump/1/turn/on/': () => {
        requested = true;
        return json({ error: false, error_text: '', pump: pump({ status: 1 }), command_id: 900 });
      },
      'GET /api/pump/1/commands/': () =>
        json([
          command({
            state: failed ? 'failed' : 'sent',
            detail: failed ? 'Pump controller did not respond' : null,
          }),
        ]),
    });
    const { user, queryClient } = renderWithProviders(<PumpActivation scope={{ kind: 'site', id: SITE }} />, {
      user: makeUser(),
    });
    await screen.findByRole('article', { name: /^Pump 1 –/ });
    const sse = await openStream(queryClient);
    await user.click(switchOf(1));
    await waitFor(() => expect(switchOf(1)).toHaveAttribute('data-position', 'middle'));

    failed = true;
    sse.change([pumpChange(32)]);
    expect(
      await screen.findByText('Pump 1 was not switched (Failed): Pump controller did not respond'),
    ).toBeInTheDocument();
    expect(switchOf(1)).toHaveAttribute('data-position', 'bottom');
  });

  it('no pumps shows NO_PUMPS_DETECTED', async () => {
    mockFetch({ [`GET /api/site/${SITE}/pumps/`]: json([]) });
    renderWithProviders(<PumpActivation scope={{ kind: 'site', id: SITE }} />, { user: makeUser() });
    expect(await screen.findByText('No pumps detected')).toBeInTheDocument();
  });

  it("opens a pump's command timeline from its tile", async () => {
    mockFetch({
      [`GET /api/site/${SITE}/pumps/`]: json([pump({ pump_no: 3, status: 1, last_synapse_status: 1 })]),
      'GET /api/pump/1/commands/': json([
        command({
          state: 'confirmed',
          pump_no: 3,
          history: [
            { state: 'queued', at: '2024-05-01T10:00:00.000Z', detail: 'Requested by Alex Agent' },
            { state: 'sent', at: '2024-05-01T10:00:01.000Z', detail: null },
            { state: 'confirmed', at: '2024-05-01T10:00:04.000Z', detail: 'Pump 3 is on' },
          ],
        }),
      ]),
    });
    const { user } = renderWithProviders(<PumpActivation scope={{ kind: 'site', id: SITE }} />, {
      user: makeUser(),
    });
    await screen.findByRole('article', { name: /^Pump 3 –/ });
    await user.click(screen.getByRole('button', { name: 'Command history of pump 3' }));
    const drawer = await screen.findByRole('dialog', { name: 'Command history: Pump 3 – Leeds Road' });
    expect(await within(drawer).findByText('Turn pump 3 on')).toBeInTheDocument();
    expect(within(drawer).getByText('Pump 3 is on')).toBeInTheDocument();
    expect(within(drawer).getByText(/Requested by Alex Agent on/)).toBeInTheDocument();
  });
});
