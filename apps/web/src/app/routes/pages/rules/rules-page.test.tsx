import type { AlertRule } from '@forecourt/contract/alert-rules';
import { screen, waitFor, within } from '@testing-library/react';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { makeAlert, makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { ruleChanges } from './rule-form.tsx';
import RulesPage, { conditionText, ruleAlertsLink } from './rules-page.tsx';

const agent = makeUser();
const rule = (overrides: Partial<AlertRule> = {}): AlertRule => ({
  id: 5,
  name: 'Battery low',
  target: { scope: { kind: 'company', id: 11 }, tags: ['kiosk'] },
  signal: 'battery_life',
  op: '<',
  threshold: 20,
  for_s: 0,
  clear_threshold: 25,
  severity: 'major',
  enabled: true,
  created_by: 'agent',
  created_at: '2026-11-27T10:00:00.000Z',
  ...overrides,
});

const t = ((key: string, o?: Record<string, unknown>) =>
  `${key}${o ? JSON.stringify(o) : ''}`) as unknown as TFunction;

describe('rules page', () => {
  it('a site user is told rules are for agents and company users; nothing is asked of the API', async () => {
    const api = mockFetch({});
    renderWithProviders(<RulesPage />, { user: makeUser({ agent: null, companies: [] }) });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Agents and company users manage alert rules.',
    );
    expect(api.calls).toHaveLength(0);
  });

  it('lists each rule with its target, condition, severity, toggle and active alerts linking to them', async () => {
    const api = mockFetch({
      'GET /api/rules/': json([rule(), rule({ id: 6, name: 'Hot cabinet', enabled: false })]),
      'GET /api/alerts/agent/7/': json([
        makeAlert({ id: 1, rule_id: 5, event_type: 100 }),
        makeAlert({ id: 2, rule_id: 5, event_type: 100, silenced: true }),
      ]),
      'GET /api/agent/7/sites/': json([]),
      'PATCH /api/rules/6/': ({ body }) => json(rule({ id: 6, name: 'Hot cabinet', ...(body as object) })),
    });
    const { user } = renderWithProviders(<RulesPage />, { user: agent, route: '/rules' });
    const table = await screen.findByRole('table', { name: 'Alert rules' });
    const row = within(table).getByText('Battery low').closest('tr')!;
    expect(within(row).getByText('Northern Fuels')).toBeInTheDocument();
    expect(within(row).getByText('Battery life < 20 · clears at 25')).toBeInTheDocument();
    expect(within(row).getByText('Major')).toBeInTheDocument();
    const link = await within(row).findByRole('link', { name: 'Active alerts of Battery low: 2' });
    expect(link).toHaveAttribute('href', '/company/11/alert/log/?rule_id=5&state=active');
    expect(api.find('GET', '/api/alerts/agent/7/')[0].url.searchParams.get('event_type')).toBe('100');

    await user.click(within(table).getByRole('switch', { name: 'Enabled: Hot cabinet' }));
    await waitFor(() => expect(api.find('PATCH', '/api/rules/6/')).toHaveLength(1));
    expect(api.find('PATCH', '/api/rules/6/')[0].body).toEqual({ enabled: true });
  });

  it('creates a rule from the form; a 400 naming a field is shown under it', async () => {
    const api = mockFetch({
      'GET /api/rules/': json([]),
      'GET /api/alerts/agent/7/': json([]),
      'GET /api/agent/7/sites/': json([{ id: 101, title: 'Leeds Road', number: '0101', status: 1 }]),
      'POST /api/targets/preview/': json({ count: 42, terminals: [] }),
      'POST /api/rules/': json({ data: { errors: ['name: a rule named Battery low already exists'] } }, 400),
    });
    const { user } = renderWithProviders(<RulesPage />, { user: agent });
    expect(await screen.findByText('No alert rules yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New rule' }));
    const form = within(await screen.findByRole('form', { name: 'New rule' }));
    expect(await form.findByText('Terminals reached now: 42')).toBeInTheDocument();
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Battery low');
    await user.type(form.getByRole('textbox', { name: 'Threshold' }), '20');
    await user.type(form.getByRole('textbox', { name: 'Clears at' }), '25');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(form.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
        'name: a rule named Battery low already exists',
      ),
    );
    expect(api.find('POST', '/api/rules/')[0].body).toMatchObject({
      name: 'Battery low',
      target: { scope: { kind: 'agent', id: 7 }, tags: [] },
      signal: 'battery_life',
      op: '<',
      threshold: 20,
      clear_threshold: 25,
      for_s: 0,
      severity: 'major',
      enabled: true,
    });
    expect(api.find('POST', '/api/targets/preview/')[0].body).toEqual({
      target: { scope: { kind: 'agent', id: 7 }, tags: [] },
      limit_to: 0,
    });
  });

  it('deletes a rule after asking', async () => {
    const api = mockFetch({
      'GET /api/rules/': json([rule()]),
      'GET /api/alerts/agent/7/': json([]),
      'GET /api/agent/7/sites/': json([]),
      'DELETE /api/rules/5/': json(rule()),
    });
    const { user } = renderWithProviders(<RulesPage />, { user: agent });
    await user.click(await screen.findByRole('button', { name: 'Delete rule Battery low' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete rule Battery low' }));
    expect(api.find('DELETE', '/api/rules/5/')).toHaveLength(0);
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.find('DELETE', '/api/rules/5/')).toHaveLength(1));
  });
});

describe('rule helpers', () => {
  it('an edit sends only what changed; a cleared clear level is sent as null', () => {
    const r = rule();
    expect(
      ruleChanges(r, {
        name: 'Battery very low',
        target: r.target,
        signal: 'battery_life',
        op: '<',
        threshold: 20,
        for_s: 0,
        clear_threshold: undefined,
        severity: 'major',
        enabled: true,
      }),
    ).toEqual({ name: 'Battery very low', clear_threshold: null });
  });

  it('says the condition and where its alerts are listed', () => {
    expect(conditionText(rule({ for_s: 300 }), t)).toBe(
      'RULES_SIGNAL_BATTERY_LIFE < 20 · RULES_FOR{"duration":"RULES_MINUTES{\\"count\\":5}"} · RULES_CLEARS_AT{"value":25}',
    );
    expect(
      ruleAlertsLink(rule({ target: { scope: { kind: 'terminal', id: 9 }, tags: [] } }), {
        kind: 'agent',
        id: 7,
      }),
    ).toBe('/agent/7/alert/log/?rule_id=5&state=active');
  });
});
