import { AdminSiteSchema, AdminTerminalSchema, CompanySchema } from '@forecourt/contract/admin';
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './helper.ts';

/**
 * Requests of the administration API as a signed-in user (the agent unless another token is given), and new
 * companies, sites and terminals with unique names and numbers. `app` and `agent` are read at each call: the
 * suite sets them in its `beforeAll`.
 */
export function adminClient(app: () => TestApp, agent: () => string) {
  let seq = 0;
  const uniq = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;
  const as = (token: string, opts: InjectOptions) => app().as(token, opts);
  const post = (url: string, payload: unknown, token = agent()) =>
    as(token, { method: 'POST', url, payload: payload as object });
  const patch = (url: string, payload: unknown, token = agent()) =>
    as(token, { method: 'PATCH', url, payload: payload as object });
  const get = (url: string, token = agent()) => as(token, { method: 'GET', url });
  const del = (url: string, token = agent()) => as(token, { method: 'DELETE', url });

  async function created<T>(url: string, body: Record<string, unknown>, parse: (json: unknown) => T) {
    const res = await post(url, body);
    expect(res.statusCode, res.body).toBe(201);
    return parse(res.json());
  }
  const newCompany = (name = uniq('Company')) =>
    created('/api/admin/companies/', { name }, (j) => CompanySchema.parse(j));
  const newSite = (companyId: number, extra: Record<string, unknown> = {}) =>
    created(
      '/api/admin/sites/',
      {
        company_id: companyId,
        title: 'Harrogate Road',
        number: uniq('S'),
        lat: 53.99,
        lng: -1.54,
        timezone: 'Europe/London',
        ...extra,
      },
      (j) => AdminSiteSchema.parse(j),
    );
  const newTerminal = (siteId: number, extra: Record<string, unknown> = {}) =>
    created(
      '/api/admin/terminals/',
      { site_id: siteId, terminal_id: uniq('T'), card_acceptor_name: 'HARROGATE RD', ...extra },
      (j) => AdminTerminalSchema.parse(j),
    );

  return { uniq, as, post, patch, get, del, newCompany, newSite, newTerminal };
}
