import type { AlertRulePreview } from '@forecourt/contract/alert-rules';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { RulePreview } from './rule-preview.tsx';

const values = {
  name: '',
  target: { scope: { kind: 'company' as const, id: 11 }, tags: ['kiosk'] },
  signal: 'battery_life' as const,
  op: '<' as const,
  threshold: 20,
  for_s: 300,
  clear_threshold: 25,
};
const answer: AlertRulePreview = {
  available: true,
  from: '2026-11-20T10:00:00.000Z',
  to: '2026-11-27T10:00:00.000Z',
  terminals: 40,
  fired: 7,
  alerts: 9,
  first: [
    {
      id: 3,
      terminal_id: 'T-0003',
      site_id: 2,
      site_title: 'Harbour Road',
      first_at: '2026-11-21T03:00:00.000Z',
      alerts: 2,
    },
  ],
};

describe('the rule editor’s 7-day preview', () => {
  it('asks for the rule as typed and tells what it would have fired on', async () => {
    const api = mockFetch({ 'POST /api/rules/preview/': () => json(answer) });
    renderWithProviders(<RulePreview values={values} />, { user: makeUser() });
    const region = screen.getByRole('region', { name: 'Last 7 days' });
    expect(await screen.findByText('Terminals that would have fired: 7 of 40')).toBeInTheDocument();
    expect(region).toHaveTextContent('Alerts, roughly: 9');
    const list = screen.getByRole('list', { name: 'Terminals that would have fired' });
    expect(list).toHaveTextContent('Terminal T-0003 · Harbour Road · first 21/11/2026 3:00 · alerts: 2');
    expect(region).toHaveTextContent('and 6 more');
    const calls = api.find('POST', '/api/rules/preview/');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({
      target: values.target,
      signal: 'battery_life',
      op: '<',
      threshold: 20,
      for_s: 300,
      clear_threshold: 25,
    });
  });

  it('asks nothing while the condition is incomplete, nor for a no-sales rule', async () => {
    const api = mockFetch({});
    const { unmount } = renderWithProviders(
      <RulePreview values={{ ...values, threshold: undefined as unknown as number }} />,
      { user: makeUser() },
    );
    expect(screen.getByText('Fill in the condition to see what it would have fired on.')).toBeInTheDocument();
    unmount();
    renderWithProviders(<RulePreview values={{ ...values, signal: 'no_sales', op: '>=' }} />, {
      user: makeUser(),
    });
    expect(screen.getByText(/No preview for no-sales rules/)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 700));
    expect(api.calls).toHaveLength(0);
  });
});
