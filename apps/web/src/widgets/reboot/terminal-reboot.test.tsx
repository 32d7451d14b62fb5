import type { SiteStatus, Terminal } from '@forecourt/contract/fleet';
import type { Command } from '@forecourt/contract/terminals';
import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSiteDetail, makeUser } from '../../testing/factories.ts';
import { json, type MockHandler, type MockReply, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { TerminalReboot } from './components/terminal-reboot.tsx';
import * as chain from './reboot-chain.ts';

const site = (id: number, title: string): SiteStatus => ({ id, title, number: String(id), status: 1 });
const terminal = (id: number, number: string): Terminal => ({ id, terminal_id: number, site_id: 0 });

const agent = makeUser({
  agent: 7,
  companies: [
    { id: 11, name: 'Northern Fuels' },
    { id: 12, name: 'Southern Fuels' },
  ],
});

function rebootCommand(terminalId: number, number: string): Command {
  const at = new Date().toISOString();
  return {
    id: 501,
    kind: 'reboot',
    terminal_id: terminalId,
    terminal_number: number,
    site_id: 101,
    pump_id: null,
    pump_no: null,
    reboot_type: 'full',
    state: 'queued',
    requested_by: 'Alex Agent',
    created_at: at,
    updated_at: at,
    expires_at: at,
    detail: null,
    history: [{ state: 'queued', at, detail: 'full reboot requested by Alex Agent' }],
  };
}

function fleet(extra: Record<string, MockHandler | MockReply> = {}) {
  return mockFetch({
    'GET /api/company/11/sites/': json([site(101, 'Leeds Road'), site(102, 'York Street')]),
    'GET /api/company/12/sites/': json([site(201, 'Bath Lane')]),
    'GET /api/site/101/terminals/': json([terminal(1001, '10010001'), terminal(1002, '10010002')]),
    'GET /api/site/102/terminals/': json([terminal(1021, '10020001')]),
    'GET /api/site/201/terminals/': json([terminal(2011, '20010001')]),
    'GET /api/company/detail/11/': json({ id: 11, name: 'Northern Fuels', agent_id: 7 }),
    'GET /api/site/detail/101/': json(makeSiteDetail()),
    ...extra,
  });
}

const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
/** The widget on the demo agent's dashboard. */
const renderForAgent = () =>
  renderWithProviders(<TerminalReboot scope={{ kind: 'agent', id: 7 }} />, { user: agent });

/** Picks a company, a site, a terminal and a reboot type, each once its list has loaded. */
async function choose(
  user: ReturnType<typeof renderForAgent>['user'],
  pick: { site: string; terminal: string; type: string },
) {
  await user.selectOptions(select('Company'), 'Northern Fuels');
  await waitFor(() => expect(select('Site')).toBeEnabled());
  await user.selectOptions(select('Site'), pick.site);
  await waitFor(() => expect(select('Terminal')).toBeEnabled());
  await user.selectOptions(select('Terminal'), pick.terminal);
  await user.selectOptions(select('Reboot type'), pick.type);
}

const selectedText = (name: string) => {
  const s = select(name);
  return s.options[s.selectedIndex]?.text;
};

beforeEach(() => {
  notifications.clean();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('reboot chain rules', () => {
  it('uses a preset id only when it is a number greater than 0', () => {
    expect(chain.presetId(5)).toBe(5);
    expect(chain.presetId('5')).toBe(5);
    expect(chain.presetId(0)).toBeNull();
    expect(chain.presetId(-3)).toBeNull();
    expect(chain.presetId('abc')).toBeNull();
    expect(chain.presetId(null)).toBeNull();
    expect(chain.presetId(undefined)).toBeNull();
    expect(chain.presetId(1.5)).toBeNull();
  });

  it('links the reboot log of the agent, else the company, else the site', () => {
    expect(chain.rebootLogPath(chain.validPresets({ agentId: 7, companyId: 11, siteId: 101 }))).toBe(
      '/agent/7/terminal/reboot/log/',
    );
    expect(chain.rebootLogPath(chain.validPresets({ agentId: 0, companyId: 11, siteId: 101 }))).toBe(
      '/company/11/terminal/reboot/log/',
    );
    expect(chain.rebootLogPath(chain.validPresets({ siteId: 101 }))).toBe('/site/101/terminal/reboot/log/');
    // A site user on its site's dashboard cannot read the company's log: the site's it is.
    expect(chain.rebootLogPath(chain.validPresets({ companyId: 11, siteId: 101 }), false)).toBe(
      '/site/101/terminal/reboot/log/',
    );
    expect(chain.rebootLogPath(chain.validPresets({}))).toBeNull();
  });

  it('changing the company clears site, terminal and type; changing the site clears terminal and type', () => {
    const p = chain.validPresets({ agentId: 7 });
    const reduce = chain.rebootChainReducer(p);
    let s = chain.initialChain(p);
    s = reduce(s, { type: 'selectCompany', id: 11 });
    s = reduce(s, { type: 'sitesLoaded', companyId: 11, ids: [101, 102] });
    expect(s.site).toBeNull(); // two sites: nothing chosen for the user
    s = reduce(s, { type: 'selectSite', id: 101 });
    s = reduce(s, { type: 'terminalsLoaded', siteId: 101, ids: [1001, 1002] });
    s = reduce(s, { type: 'selectTerminal', id: 1002 });
    s = reduce(s, { type: 'selectRebootType', value: 'full' });
    expect(chain.chainEnabled(s).reboot).toBe(true);
    const afterSite = reduce(s, { type: 'selectSite', id: 102 });
    expect(afterSite).toMatchObject({ company: 11, site: 102, terminal: null, rebootType: null });
    const afterCompany = reduce(s, { type: 'selectCompany', id: 12 });
    expect(afterCompany).toMatchObject({ company: 12, site: null, terminal: null, rebootType: null });
  });

  it('selects a single site and a single terminal automatically', () => {
    const p = chain.validPresets({});
    const reduce = chain.rebootChainReducer(p);
    let s = reduce(chain.initialChain(p), { type: 'companiesLoaded', ids: [12] });
    expect(s.company).toBe(12);
    s = reduce(s, { type: 'sitesLoaded', companyId: 12, ids: [201] });
    expect(s.site).toBe(201);
    s = reduce(s, { type: 'terminalsLoaded', siteId: 201, ids: [2011] });
    expect(s.terminal).toBe(2011);
    // A late answer for another company changes nothing.
    expect(reduce(s, { type: 'sitesLoaded', companyId: 11, ids: [101] })).toBe(s);
  });

  it('after a reboot every choice clears, presets stay', () => {
    const p = chain.validPresets({ companyId: 11 });
    const reduce = chain.rebootChainReducer(p);
    let s = chain.initialChain(p);
    expect(reduce(s, { type: 'selectCompany', id: 12 }).company).toBe(11);
    s = reduce(s, { type: 'sitesLoaded', companyId: 11, ids: [101, 102] });
    s = reduce(s, { type: 'selectSite', id: 101 });
    s = reduce(s, { type: 'selectTerminal', id: 1001 });
    s = reduce(s, { type: 'selectRebootType', value: 'software' });
    s = reduce(s, { type: 'rebooted' });
    expect(s).toMatchObject({
      company: 11,
      site: null,
      terminal: null,
      rebootType: null,
      sitesLoadedFor: 11,
    });

    const none = chain.validPresets({ agentId: 7 });
    const r2 = chain.rebootChainReducer(none);
    let t = r2(chain.initialChain(none), { type: 'selectCompany', id: 11 });
    t = r2(t, { type: 'sitesLoaded', companyId: 11, ids: [101, 102] });
    t = r2(t, { type: 'rebooted' });
    expect(t).toMatchObject({ company: null, site: null, sitesLoadedFor: null });
  });
});

describe('TerminalReboot', () => {
  it('each dropdown is disabled until the one before has a value, with their placeholders', async () => {
    fleet();
    const { user } = renderForAgent();
    expect(selectedText('Company')).toBe('Company...');
    expect(selectedText('Site')).toBe('Site...');
    expect(selectedText('Terminal')).toBe('Terminal...');
    expect(selectedText('Reboot type')).toBe('Choose an option...');
    expect(select('Company')).toBeEnabled();
    expect(select('Site')).toBeDisabled();
    expect(select('Terminal')).toBeDisabled();
    expect(select('Reboot type')).toBeDisabled();
    const image = screen.getByRole('button', { name: 'Reboot terminal' });
    expect(image).toBeDisabled();
    expect(image).toHaveAttribute('data-ready', 'false');

    await user.selectOptions(select('Company'), 'Northern Fuels');
    await waitFor(() => expect(select('Site')).toBeEnabled());
    expect(within(select('Site')).getByRole('option', { name: 'York Street' })).toBeInTheDocument();
    expect(select('Terminal')).toBeDisabled();

    await user.selectOptions(select('Site'), 'Leeds Road');
    await waitFor(() => expect(select('Terminal')).toBeEnabled());
    expect(select('Reboot type')).toBeDisabled();

    await user.selectOptions(select('Terminal'), '10010002');
    expect(select('Reboot type')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Reboot terminal' })).toBeDisabled();
    expect(within(select('Reboot type')).getByRole('option', { name: 'Software' })).toBeInTheDocument();
    await user.selectOptions(select('Reboot type'), 'Full');
    expect(screen.getByRole('button', { name: 'Reboot terminal' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Reboot terminal' })).toHaveAttribute('data-ready', 'true');
    expect(screen.getByRole('link', { name: 'Reboot log' })).toHaveAttribute(
      'href',
      '/agent/7/terminal/reboot/log/',
    );
  });

  it('changing the company clears what follows and loads its sites; a single site is chosen with its terminal', async () => {
    const http = fleet();
    const { user } = renderForAgent();
    await choose(user, { site: 'Leeds Road', terminal: '10010001', type: 'Software' });

    await user.selectOptions(select('Company'), 'Southern Fuels');
    expect(http.find('GET', '/api/company/12/sites/')).toHaveLength(1);
    // Southern Fuels has one site with one terminal: both chosen automatically; the type is cleared.
    await waitFor(() => expect(selectedText('Site')).toBe('Bath Lane'));
    await waitFor(() => expect(selectedText('Terminal')).toBe('20010001'));
    expect(selectedText('Reboot type')).toBe('Choose an option...');
    expect(screen.getByRole('button', { name: 'Reboot terminal' })).toBeDisabled();
  });

  it('changing the site clears terminal and type and loads its terminals', async () => {
    const http = fleet();
    const { user } = renderForAgent();
    await choose(user, { site: 'Leeds Road', terminal: '10010002', type: 'Full' });
    await user.selectOptions(select('Site'), 'York Street');
    expect(http.find('GET', '/api/site/102/terminals/')).toHaveLength(1);
    await waitFor(() => expect(selectedText('Terminal')).toBe('10020001'));
    expect(selectedText('Reboot type')).toBe('Choose an option...');
  });

  it('preset company and site show their name and title and load terminals; bad presets are ignored', async () => {
    const http = fleet();
    renderWithProviders(<TerminalReboot scope={{ kind: 'site', id: 101 }} />, {
      user: makeUser({ agent: null, companies: [], sites: [] }),
    });
    await waitFor(() => expect(selectedText('Company')).toBe('Northern Fuels'));
    await waitFor(() => expect(selectedText('Site')).toBe('Leeds Road'));
    await waitFor(() => expect(select('Terminal')).toBeEnabled());
    expect(http.find('GET', '/api/site/101/terminals/')).toHaveLength(1);
    expect(http.find('GET', '/api/company/11/sites/')).toHaveLength(0);
    // A site user may not read the company: its name comes with the site, the log link is the site's.
    expect(http.find('GET', '/api/company/detail/11/')).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Reboot log' })).toHaveAttribute(
      'href',
      '/site/101/terminal/reboot/log/',
    );
  });

  it('a preset company alone shows its name and loads its sites', async () => {
    const http = fleet();
    renderWithProviders(<TerminalReboot scope={{ kind: 'company', id: 11 }} />, {
      user: makeUser({ agent: null, companies: [], sites: [] }),
    });
    await waitFor(() => expect(selectedText('Company')).toBe('Northern Fuels'));
    expect(select('Company')).toBeDisabled();
    await waitFor(() => expect(select('Site')).toBeEnabled());
    expect(selectedText('Site')).toBe('Site...');
    expect(http.find('GET', '/api/company/11/sites/')).toHaveLength(1);
  });

  it('ignores presets that are not numbers above 0', async () => {
    const http = fleet();
    renderWithProviders(<TerminalReboot scope={{ kind: 'site', id: 0 }} />, { user: agent });
    expect(selectedText('Company')).toBe('Company...');
    expect(select('Site')).toBeDisabled();
    expect(http.calls).toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'Reboot log' })).not.toBeInTheDocument();
  });

  it('confirms in a modal; OK sends the reboot, toasts at once and clears the choices', async () => {
    let answer: (r: MockReply) => void = () => {};
    const http = fleet({
      'POST /api/terminal/1002/reboot/': () =>
        new Promise<MockReply>((resolve) => {
          answer = resolve;
        }),
    });
    const { user } = renderForAgent();
    await choose(user, { site: 'Leeds Road', terminal: '10010002', type: 'Full' });

    await user.click(screen.getByRole('button', { name: 'Reboot terminal' }));
    let dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('confirm reboot of type full for terminal 10010002?'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.find('POST', '/api/terminal/1002/reboot/')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Reboot terminal' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    // The toast shows while the request is still unanswered.
    expect(
      await screen.findByText('The terminal is rebooting, please wait until it has finished'),
    ).toBeInTheDocument();
    await waitFor(() => expect(http.find('POST', '/api/terminal/1002/reboot/')).toHaveLength(1));
    expect(http.find('POST', '/api/terminal/1002/reboot/')[0].body).toEqual({ reboot_type: 'full' });
    expect(selectedText('Company')).toBe('Company...');
    expect(selectedText('Site')).toBe('Site...');
    expect(select('Site')).toBeDisabled();
    expect(selectedText('Terminal')).toBe('Terminal...');
    expect(selectedText('Reboot type')).toBe('Choose an option...');
    expect(screen.getByRole('button', { name: 'Reboot terminal' })).toBeDisabled();
    answer(json({ error: false, error_text: '', command: rebootCommand(1002, '10010002') }, 202));

    // The terminal just rebooted keeps its command timeline one click away.
    http.spy.mockClear();
    vi.stubGlobal(
      'fetch',
      mockFetch({
        'GET /api/terminal/1002/commands/': json([rebootCommand(1002, '10010002')]),
      }).spy,
    );
    await user.click(screen.getByRole('button', { name: 'Command history of terminal 10010002' }));
    const drawer = await screen.findByRole('dialog', { name: 'Command history: Terminal 10010002' });
    expect(await within(drawer).findByText('Full reboot of terminal 10010002')).toBeInTheDocument();
    expect(within(drawer).getByText('Queued', { selector: 'p' })).toBeInTheDocument();
  });
});
