import type { Command } from '@forecourt/contract/terminals';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { CommandTimeline, CommandTimelineDrawer } from './command-timeline.tsx';

const T0 = '2024-05-01T10:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

function command(overrides: Partial<Command>): Command {
  return {
    id: 1,
    kind: 'pump_on',
    terminal_id: 5,
    terminal_number: '10010002',
    site_id: 101,
    pump_id: 9,
    pump_no: 2,
    reboot_type: null,
    state: 'queued',
    requested_by: 'Alex Agent',
    created_at: T0,
    updated_at: T0,
    expires_at: at(300),
    detail: null,
    history: [{ state: 'queued', at: T0, detail: null }],
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CommandTimeline', () => {
  it('shows each command with who and when, and every step: requested, sent, confirmed / failed / timed out / expired', async () => {
    mockFetch({
      'GET /api/terminal/5/commands/': json([
        command({
          id: 4,
          kind: 'reboot',
          pump_id: null,
          pump_no: null,
          reboot_type: 'software',
          state: 'sent',
          requested_by: 'Casey Company',
          history: [
            { state: 'queued', at: at(30), detail: 'software reboot requested by Casey Company' },
            { state: 'sent', at: at(31), detail: null },
          ],
        }),
        command({
          id: 3,
          kind: 'pump_off',
          state: 'expired',
          history: [
            { state: 'queued', at: at(20), detail: null },
            { state: 'expired', at: at(25), detail: 'Not fetched in time' },
          ],
        }),
        command({
          id: 2,
          state: 'timed_out',
          history: [
            { state: 'queued', at: at(10), detail: null },
            { state: 'sent', at: at(11), detail: null },
            { state: 'timed_out', at: at(15), detail: 'No answer from the device' },
          ],
        }),
        command({
          id: 1,
          state: 'failed',
          requested_by: null,
          history: [
            { state: 'queued', at: T0, detail: null },
            { state: 'sent', at: at(1), detail: null },
            { state: 'failed', at: at(4), detail: 'Pump controller did not respond' },
          ],
        }),
      ]),
    });
    renderWithProviders(<CommandTimeline owner="terminal" id={5} />, { user: makeUser() });
    const list = await screen.findByRole('list', { name: 'Command history' });
    const items = within(list).getAllByRole('listitem', { name: /^#/ });
    expect(items).toHaveLength(4);

    const [reboot, expired, timedOut, failed] = items;
    expect(within(reboot).getByText('Software reboot of terminal 10010002')).toBeInTheDocument();
    expect(within(reboot).getByText(/^Requested by Casey Company on /)).toBeInTheDocument();
    expect(within(reboot).getByText('software reboot requested by Casey Company')).toBeInTheDocument();
    expect(within(reboot).getAllByText('Sent')).toHaveLength(2); // the badge and the step
    expect(within(reboot).getByText('Waiting for the device to confirm...')).toBeInTheDocument();

    expect(within(expired).getByText('Turn pump 2 off')).toBeInTheDocument();
    expect(within(expired).getAllByText('Expired')).toHaveLength(2);
    expect(within(expired).getByText('Not fetched in time')).toBeInTheDocument();

    expect(within(timedOut).getAllByText('Timed out')).toHaveLength(2);
    expect(within(timedOut).getByText('No answer from the device')).toBeInTheDocument();

    expect(within(failed).getByText('Turn pump 2 on')).toBeInTheDocument();
    expect(within(failed).getAllByText('Failed')).toHaveLength(2);
    expect(within(failed).getByText(/^Requested by an unknown user on /)).toBeInTheDocument();
    expect(within(failed).getByText('Queued')).toBeInTheDocument();
    const times = failed.querySelectorAll('time');
    expect([...times].map((t) => t.getAttribute('dateTime'))).toEqual([T0, at(1), at(4)]);
    expect(within(failed).queryByText(/Waiting for the device/)).not.toBeInTheDocument();
  });

  it('says when there are no commands, and when they could not be loaded', async () => {
    mockFetch({
      'GET /api/pump/9/commands/': json([]),
      'GET /api/pump/10/commands/': json({ data: { errors: ['You cannot reach this pump.'] } }, 403),
    });
    const { unmount } = renderWithProviders(<CommandTimeline owner="pump" id={9} />, { user: makeUser() });
    expect(await screen.findByText('No commands yet')).toBeInTheDocument();
    unmount();
    renderWithProviders(<CommandTimeline owner="pump" id={10} />, { user: makeUser() });
    expect(await screen.findByText('The command history could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('You cannot reach this pump.')).toBeInTheDocument();
  });

  it('the drawer is a dialog named after what it shows, with a Close button', async () => {
    mockFetch({ 'GET /api/pump/9/commands/': json([command({ state: 'confirmed' })]) });
    const onClose = vi.fn();
    const { user } = renderWithProviders(
      <CommandTimelineDrawer target={{ owner: 'pump', id: 9, label: 'Pump 2' }} onClose={onClose} />,
      { user: makeUser() },
    );
    const drawer = await screen.findByRole('dialog', { name: 'Command history: Pump 2' });
    expect(await within(drawer).findByText('Done')).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });
});
