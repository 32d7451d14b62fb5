import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { batteryQueries } from './api/get-battery.ts';
import { FlashDriveWidget } from './components/flash-drive-widget.tsx';
import { TerminalBatteryWidget } from './components/terminal-battery-widget.tsx';

const battery = (terminal: string, life: number) => ({
  life,
  terminal: { terminal_id: terminal },
  customer: 'Leeds Road',
  site_number: '0101',
});

/** The level thresholds (docs/product.md#terminal-battery-and-flash-drive) at their edges: image and text colour. */
const EDGES: [number, string, string][] = [
  [91, 'full', 'green'],
  [90, 'none', 'none'],
  [89.9, 'three-quarters', 'yellow'],
  [75, 'three-quarters', 'yellow'],
  [74.9, 'half', 'orange'],
  [50, 'half', 'orange'],
  [49.9, 'quarter', 'red'],
  [6, 'quarter', 'red'],
  [5.5, 'none', 'red'],
  [5, 'none', 'red'],
  [4.9, 'empty', 'red'],
];

describe('Terminal battery widget', () => {
  it('picks the image and colour by the thresholds 90/75/50/6/5, one terminal at a time', async () => {
    mockFetch({
      'GET /api/site/5/terminals/battery/': json(EDGES.map(([life], i) => battery(`T${i}`, life))),
    });
    const { user } = renderWithProviders(<TerminalBatteryWidget scope={{ kind: 'site', id: 5 }} />, {
      user: makeUser(),
    });
    const card = await screen.findByTestId('terminal-battery');
    await within(card).findByText('T0');
    for (const [i, [life, image, color]] of EDGES.entries()) {
      expect(within(card).getByTestId('terminal-id')).toHaveTextContent(`T${i}`);
      const level = card.querySelector('[data-level]');
      expect(level, `image at ${life}`).toHaveAttribute('data-level', image);
      expect(within(card).getByTestId('level-percent'), `colour at ${life}`).toHaveAttribute(
        'data-color',
        color,
      );
      await user.click(within(card).getByRole('button', { name: 'Next' }));
    }
    // Wrapped around to the first.
    expect(within(card).getByTestId('terminal-id')).toHaveTextContent('T0');
    expect(within(card).getByText('Battery life')).toBeInTheDocument();
    expect(within(card).getByText('Leeds Road')).toBeInTheDocument();
    expect(within(card).getByText('0101')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Full level' })).toBeInTheDocument();
  });

  it('Prev wraps to the last; a new list selects the first again', async () => {
    const first = [battery('A', 95), battery('B', 80), battery('C', 60)];
    mockFetch({ 'GET /api/site/5/terminals/battery/': json(first) });
    const { user, queryClient } = renderWithProviders(
      <TerminalBatteryWidget scope={{ kind: 'site', id: 5 }} />,
      {
        user: makeUser(),
      },
    );
    const card = await screen.findByTestId('terminal-battery');
    await within(card).findByText('A');
    await user.click(within(card).getByRole('button', { name: 'Prev' }));
    expect(within(card).getByTestId('terminal-id')).toHaveTextContent('C');
    await user.click(within(card).getByRole('button', { name: 'Prev' }));
    expect(within(card).getByTestId('terminal-id')).toHaveTextContent('B');
    act(() => {
      queryClient.setQueryData(batteryQueries.site({ kind: 'site', id: 5 }).queryKey, [
        battery('X', 20),
        battery('B', 80),
      ]);
    });
    await waitFor(() => expect(within(card).getByText('1 / 2')).toBeInTheDocument());
    expect(within(card).getByTestId('terminal-id')).toHaveTextContent('X');
    expect(within(card).getByTestId('level-percent')).toHaveTextContent('20%');
  });

  it("the terminal's number leads to its page", async () => {
    mockFetch({
      'GET /api/site/5/terminals/battery/': json([
        { ...battery('10050001', 40), terminal: { terminal_id: '10050001', id: 17 } },
      ]),
    });
    renderWithProviders(<TerminalBatteryWidget scope={{ kind: 'site', id: 5 }} />, { user: makeUser() });
    const card = await screen.findByTestId('terminal-battery');
    expect(await within(card).findByRole('link', { name: '10050001' })).toHaveAttribute(
      'href',
      '/site/5/terminal/17',
    );
  });

  it('without terminals shows NO_TERMINAL_INFORMATION', async () => {
    mockFetch({ 'GET /api/site/5/terminals/battery/': json([]) });
    renderWithProviders(<TerminalBatteryWidget scope={{ kind: 'site', id: 5 }} />, { user: makeUser() });
    expect(await screen.findByText('No terminal information')).toBeInTheDocument();
  });
});

describe('Flash drive widget', () => {
  it('uses the left percentage, the FLASDRIVE_LIFE label and the flash drive log link', async () => {
    mockFetch({
      'GET /api/site/5/terminals/flashdisk/': json([
        { left: 40, terminal: { terminal_id: 'F1' }, customer: 'York Way', site_number: '0102' },
        { left: 92, terminal: { terminal_id: 'F2' } },
      ]),
    });
    const { user } = renderWithProviders(<FlashDriveWidget scope={{ kind: 'site', id: 5 }} />, {
      user: makeUser(),
    });
    const card = await screen.findByTestId('flash-drive');
    expect(await within(card).findByText('40%')).toHaveAttribute('data-color', 'red');
    expect(within(card).getByText('Flash drive life')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Next' }));
    expect(within(card).getByText('92%')).toHaveAttribute('data-color', 'green');
    expect(within(card).getByTestId('terminal-id')).toHaveTextContent('F2');
    expect(within(card).getByRole('link', { name: 'Flash drive log' })).toHaveAttribute(
      'href',
      '/site/5/terminal/flashdrive/log',
    );
  });
});
