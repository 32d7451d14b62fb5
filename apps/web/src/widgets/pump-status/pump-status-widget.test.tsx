import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { PUMP_STATUS_SIZE_2X, PumpStatusWidget, pumpPanels } from './components/pump-status-widget.tsx';

const log = {
  '10': [{ created_at: '2024-05-01T12:05:00Z', text: 'Nozzle fault', status: 4012 }],
  '2': [
    { created_at: '2024-05-01T12:07:00Z', text: 'Pump ok', status: 4000 },
    { created_at: '2024-05-01T11:00:00Z', text: 'Pump started', status: 4001 },
  ],
  '1': [],
};

describe('pumpPanels', () => {
  it('orders pumps by key, subtitles by the first entry or -, alerts when the first is not 4000', () => {
    const panels = pumpPanels(log);
    expect(panels.map((p) => p.key)).toEqual(['1', '2', '10']);
    expect(panels.map((p) => p.subtitle)).toEqual(['-', 'Pump ok', 'Nozzle fault']);
    expect(panels.map((p) => p.alert)).toEqual([false, false, true]);
    expect(panels[1].lines).toHaveLength(2);
    expect(panels[1].lines[0]).toMatch(/^1\/5\/2024 \d{1,2}:07 Pump ok$/);
    expect(pumpPanels(null)).toEqual([]);
  });
});

describe('Pump status widget', () => {
  it("shows an accordion per pump 'Pump {key}', an alert image, and lines 'd/M/yyyy H:mm text'", async () => {
    mockFetch({ 'GET /api/site/5/pumps/status/': json(log) });
    const { user } = renderWithProviders(<PumpStatusWidget scope={{ kind: 'site', id: 5 }} size2X />, {
      user: makeUser(),
    });
    const pump2 = await screen.findByRole('button', { name: /^Pump 2/ });
    expect(within(pump2).getByText('Pump ok')).toBeInTheDocument();
    expect(within(screen.getByRole('button', { name: /^Pump 1\b/ })).getByText('-')).toBeInTheDocument();
    const pump10 = screen.getByRole('button', { name: /^Pump 10/ });
    expect(within(pump10).getByRole('img', { name: 'Pump reports a problem' })).toBeInTheDocument();
    expect(within(pump2).queryByRole('img', { name: 'Pump reports a problem' })).not.toBeInTheDocument();
    await user.click(pump2);
    expect(pump2).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByText(/^1\/5\/2024 \d{1,2}:00 Pump started$/)).toBeInTheDocument();
    await user.click(pump10);
    expect(pump2).toHaveAttribute('aria-expanded', 'false');
    // Mantine writes the box height in rem: 450px = 28.125rem.
    expect(screen.getByTestId('pump-status').getAttribute('style')).toContain(
      `${PUMP_STATUS_SIZE_2X / 16}rem`,
    );
    expect(screen.getByRole('link', { name: 'Pump status log' })).toHaveAttribute(
      'href',
      '/site/5/pump/status/log',
    );
  });

  it('without pumps shows NO_PUMPS_DETECTED', async () => {
    mockFetch({ 'GET /api/site/5/pumps/status/': json({}) });
    renderWithProviders(<PumpStatusWidget scope={{ kind: 'site', id: 5 }} />, { user: makeUser() });
    expect(await screen.findByText('No pumps detected')).toBeInTheDocument();
  });
});
