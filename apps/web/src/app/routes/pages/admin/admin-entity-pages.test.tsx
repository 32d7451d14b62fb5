import { ADMIN_ENTITIES, ADMIN_REQUEST_SCHEMAS } from '@forecourt/contract/admin';
import { ADMIN_ENTITY_NAMES, type AdminEntity } from '@forecourt/contract/admin-entities';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { adminLabel } from '../../../../config/paths.ts';
import { translateMessage } from '../../../../i18n/messages.ts';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { catalogues, createTestI18n } from '../../../../testing/test-i18n.ts';
import { loadAdminPage } from '../../page-loaders.ts';

/**
 * What every page of an administered entity does, derived from the contract (ADMIN_ENTITY_NAMES, ADMIN_ENTITIES,
 * ADMIN_REQUEST_SCHEMAS) and the English texts, for each page the app loads (`loadAdminPage`): a new entity's page
 * is checked here with no line to add. A page's own test covers only what is particular to it.
 */

const en = catalogues().en;
const t = createTestI18n('en').t;
const agent = makeUser();

/** The English text of a key, which must exist (a missing key would show as the key itself). */
function text(key: string): string {
  expect(en[key], `the English texts have no ${key}`).toEqual(expect.any(String));
  return en[key];
}

/** A row as the list answers it, made from the contract's row schema: nulls where it may, else a plain value. */
function sample(schema: ZodType): unknown {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, ZodType>).map(([key, field]) => [key, sample(field)]),
      );
    case 'nullable':
      return null;
    case 'optional':
      return undefined;
    case 'default':
    case 'pipe':
      return sample((def.innerType ?? def.in) as ZodType);
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    // Text: a date serves a column that formats it as well as one that shows it.
    default:
      return '2026-01-01T00:00:00.000Z';
  }
}

/** The entities above one: its parents, theirs, and so on. */
function ancestors(entity: AdminEntity): AdminEntity[] {
  const out: AdminEntity[] = [];
  for (const parent of ADMIN_ENTITIES[entity].parents as readonly AdminEntity[]) {
    for (const e of [parent, ...ancestors(parent)]) if (!out.includes(e)) out.push(e);
  }
  return out;
}

/**
 * The lists a page reads: its own, and those of the entities above it (the filters and the form's pickers, the
 * names in its rows).
 */
function listRoutes(entity: AdminEntity, rows: unknown[] = []) {
  return Object.fromEntries([
    [`GET /api/admin/${entity}/`, json(rows)],
    ...ancestors(entity).map((above) => [`GET /api/admin/${above}/`, json([])]),
  ]);
}

describe.each(ADMIN_ENTITY_NAMES.map((entity) => ({ entity, one: ADMIN_ENTITIES[entity].one })))(
  'admin page of $entity',
  ({ entity, one }) => {
    const label = text(adminLabel(entity));
    const createLabel = text(`ADMIN_CREATE_${one.toUpperCase()}`);
    const render = async () => {
      const { default: Page } = await loadAdminPage(entity);
      return renderWithProviders(<Page />, { user: agent, route: `/admin/${entity}` });
    };

    it('a user without an agent sees that administration is for agents, and nothing is asked of the API', async () => {
      const api = mockFetch({});
      const { default: Page } = await loadAdminPage(entity);
      renderWithProviders(<Page />, { user: makeUser({ agent: null }) });
      expect(await screen.findByRole('alert')).toHaveTextContent(text('ADMIN_AGENTS_ONLY'));
      expect(screen.getByRole('heading', { level: 1, name: label })).toBeInTheDocument();
      expect(api.calls).toHaveLength(0);
    });

    it('with nothing listed, shows its title, its empty state and its New button; of the admin lists it reads only its own and those of the entities above it', async () => {
      const routes = listRoutes(entity);
      const api = mockFetch(routes);
      await render();
      expect(await screen.findByRole('heading', { level: 1, name: label })).toBeInTheDocument();
      expect(await screen.findByText(text('ADMIN_EMPTY'))).toBeInTheDocument();
      expect(screen.getByRole('button', { name: createLabel })).toBeInTheDocument();
      expect(api.find('GET', `/api/admin/${entity}/`).length).toBeGreaterThan(0);
      // Other reads (the sites form's map asks GET /api/config for its tiles) answer 404 here: the page copes.
      const asked = api.calls.map((c) => `${c.method} ${c.url.pathname}`);
      expect(asked.filter((call) => call.includes(' /api/admin/') && !(call in routes))).toEqual([]);
    });

    it('lists a row in a table named by its menu label', async () => {
      const row = sample(ADMIN_ENTITIES[entity].row);
      expect(ADMIN_ENTITIES[entity].row.safeParse(row).success).toBe(true);
      mockFetch(listRoutes(entity, [row]));
      await render();
      const table = await screen.findByRole('table', { name: label });
      expect(within(table).getAllByRole('row').length).toBeGreaterThan(1);
    });

    it('its New button opens the form; Save on the empty form sends nothing and shows the contract’s message by a field', async () => {
      const schema: ZodType = ADMIN_REQUEST_SCHEMAS[entity].create;
      const empty = schema.safeParse({});
      expect(empty.success, 'an empty body must not be valid').toBe(false);
      const messages = (empty.error?.issues ?? []).map((issue) => translateMessage(t, issue.message));
      const api = mockFetch(listRoutes(entity));
      const { user } = await render();
      await user.click(await screen.findByRole('button', { name: createLabel }));
      const form = await screen.findByRole('form', { name: createLabel });
      await user.click(within(form).getByRole('button', { name: text('SAVE') }));
      await waitFor(() => expect(form.querySelectorAll('[aria-invalid="true"]').length).toBeGreaterThan(0));
      const shown = [...form.querySelectorAll('[aria-invalid="true"]')].map((field) =>
        (field.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
          .join(' '),
      );
      expect(
        shown.some((description) => messages.some((m) => description.includes(m))),
        shown.join(' | '),
      ).toBe(true);
      expect(api.calls.filter((c) => c.method !== 'GET')).toEqual([]);
    });
  },
);
