import {
  AdminConflictSchema,
  AdminPumpSchema,
  AdminSiteSchema,
  AdminTerminalSchema,
  AdminUserSchema,
  CompanyCreateSchema,
  CompanyListQuerySchema,
  CompanyPatchSchema,
  CompanySchema,
  PumpCreateSchema,
  PumpListQuerySchema,
  PumpPatchSchema,
  SiteCreateSchema,
  SiteListQuerySchema,
  SitePatchSchema,
  TerminalCreateSchema,
  TerminalListQuerySchema,
  TerminalPatchSchema,
  UserCreateSchema,
  UserListQuerySchema,
  UserPatchSchema,
} from '@forecourt/contract/admin';
import { ErrorBodySchema } from '@forecourt/contract/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../../lib/errors.ts';
import { sendPage } from '../../lib/paging.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { parseId } from '../../plugins/scope.ts';
import type { Actor, Outcome } from '../../repositories/admin-repository.ts';
import { createFleetService } from '../../services/fleet.ts';
import { auditRoutes } from './audit.ts';
import { importRoutes } from './import.ts';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: AdminConflictSchema,
};

export function actorOf(request: FastifyRequest): Actor {
  const p = request.principal!;
  return { userId: p.userId, username: p.username, agentId: p.agentId! };
}

/** The answer of a repository outcome: the value, or its error with status (and the blocking children). */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw new HttpError(outcome.status, outcome.errors, outcome.children ? { children: outcome.children } : {});
}

/** `:id` of an admin path: non-numeric → 404. */
export function idOf(request: FastifyRequest): number {
  const id = parseId((request.params as { id?: unknown }).id);
  if (id === null) throw notFound();
  return id;
}

interface EntitySpec {
  path: string;
  tag: string;
  name: string;
  entity: z.ZodType;
  list: z.ZodType;
  create: z.ZodType;
  patch: z.ZodType;
  searches: string;
}

/**
 * Fleet administration (docs/product.md#fleet-administration): agents only, everything under the caller's agent id;
 * company and site users get 403.
 */
export async function adminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = [app.authenticate, app.agentOnly('administer the fleet')];
  const repo = app.repos.admin;
  const fleet = createFleetService(app.repos);

  function entityRoutes<L extends z.ZodType, C extends z.ZodType, P extends z.ZodType>(
    spec: EntitySpec & { list: L; create: C; patch: P },
    impl: {
      list: (agentId: number, q: z.output<L>) => Promise<Array<{ id: number }>>;
      get: (agentId: number, id: number) => Promise<Outcome<unknown>>;
      create: (actor: Actor, body: z.output<C>) => Promise<Outcome<unknown>>;
      patch: (actor: Actor, id: number, body: z.output<P>) => Promise<Outcome<unknown>>;
      remove: (actor: Actor, id: number) => Promise<Outcome<unknown>>;
    },
  ) {
    const base = `/api/admin/${spec.path}/`;
    const security = [{ jwt: [] }];
    r.get(
      base,
      {
        onRequest: guard,
        schema: {
          tags: ['admin'],
          security,
          summary: `List ${spec.name}s (agents only)`,
          description: `Newest first; \`q\` searches ${spec.searches}; paged with \`limit_to\` and \`before\` (the id of the last row seen, also in \`X-Next-Cursor\` and \`Link\`).`,
          querystring: spec.list,
          response: { 200: z.array(spec.entity), ...errors },
        },
      },
      async (request, reply) => {
        const q = request.query as z.output<L> & { limit_to: number };
        const rows = await impl.list(request.principal!.agentId!, q);
        return sendPage(request, reply, rows, q.limit_to);
      },
    );
    r.post(
      base,
      {
        onRequest: guard,
        schema: {
          tags: ['admin'],
          security,
          summary: `Create a ${spec.name} (agents only)`,
          body: spec.create,
          response: { 201: spec.entity, ...errors },
        },
      },
      async (request, reply) => {
        const value = unwrap(await impl.create(actorOf(request), request.body as z.output<C>));
        return reply.status(201).send(value);
      },
    );
    r.get(
      `${base}:id/`,
      {
        onRequest: guard,
        schema: {
          tags: ['admin'],
          security,
          summary: `One ${spec.name} (agents only)`,
          params: IdPathSchema,
          response: { 200: spec.entity, ...errors },
        },
      },
      async (request) => unwrap(await impl.get(request.principal!.agentId!, idOf(request))),
    );
    r.patch(
      `${base}:id/`,
      {
        onRequest: guard,
        schema: {
          tags: ['admin'],
          security,
          summary: `Change a ${spec.name} (agents only)`,
          params: IdPathSchema,
          body: spec.patch,
          response: { 200: spec.entity, ...errors },
        },
      },
      async (request) => {
        const id = idOf(request);
        return unwrap(await impl.patch(actorOf(request), id, request.body as z.output<P>));
      },
    );
    r.delete(
      `${base}:id/`,
      {
        onRequest: guard,
        schema: {
          tags: ['admin'],
          security,
          summary: `Decommission a ${spec.name} (agents only)`,
          description:
            'The object leaves every read, widget and map at once; its history stays in the logs and the audit. ' +
            'Answers 200 with the decommissioned object; 409 naming the live children while it has any.',
          params: IdPathSchema,
          response: { 200: spec.entity, ...errors },
        },
      },
      async (request) => {
        const id = idOf(request);
        return unwrap(await impl.remove(actorOf(request), id));
      },
    );
  }

  entityRoutes(
    {
      path: 'companies',
      tag: 'admin',
      name: 'company',
      entity: CompanySchema,
      list: CompanyListQuerySchema,
      create: CompanyCreateSchema,
      patch: CompanyPatchSchema,
      searches: 'the name',
    },
    {
      list: (agentId, q) => repo.listCompanies(agentId, { q: q.q, limit: q.limit_to, before: q.before }),
      get: (agentId, id) => repo.getCompany(agentId, id),
      create: (actor, body) => repo.createCompany(actor, body),
      patch: (actor, id, body) => repo.patchCompany(actor, id, body),
      remove: (actor, id) => repo.decommissionCompany(actor, id),
    },
  );

  entityRoutes(
    {
      path: 'sites',
      tag: 'admin',
      name: 'site',
      entity: AdminSiteSchema,
      list: SiteListQuerySchema,
      create: SiteCreateSchema,
      patch: SitePatchSchema,
      searches: 'title, number and address; `company_id` keeps one company',
    },
    {
      list: (agentId, q) =>
        repo.listSites(agentId, { q: q.q, limit: q.limit_to, before: q.before, companyId: q.company_id }),
      get: (agentId, id) => repo.getSite(agentId, id),
      create: (actor, body) => repo.createSite(actor, body),
      patch: (actor, id, body) => fleet.patchSite(actor, id, body),
      remove: (actor, id) => repo.decommissionSite(actor, id),
    },
  );

  entityRoutes(
    {
      path: 'terminals',
      tag: 'admin',
      name: 'terminal',
      entity: AdminTerminalSchema,
      list: TerminalListQuerySchema,
      create: TerminalCreateSchema,
      patch: TerminalPatchSchema,
      searches: 'terminal number and card acceptor name; `site_id` keeps one site',
    },
    {
      list: (agentId, q) =>
        repo.listTerminals(agentId, { q: q.q, limit: q.limit_to, before: q.before, siteId: q.site_id }),
      get: (agentId, id) => repo.getTerminal(agentId, id),
      create: (actor, body) => repo.createTerminal(actor, body),
      patch: (actor, id, body) => fleet.patchTerminal(actor, id, body),
      // The token row goes with the decommissioning; its 'device' change drops cached lookups and ends waiting
      // long-polls on every node (plugins/node-sync.ts).
      remove: (actor, id) => repo.decommissionTerminal(actor, id),
    },
  );

  entityRoutes(
    {
      path: 'pumps',
      tag: 'admin',
      name: 'pump',
      entity: AdminPumpSchema,
      list: PumpListQuerySchema,
      create: PumpCreateSchema,
      patch: PumpPatchSchema,
      searches: 'pump number, site title and site number; `site_id` keeps one site',
    },
    {
      list: (agentId, q) =>
        repo.listPumps(agentId, { q: q.q, limit: q.limit_to, before: q.before, siteId: q.site_id }),
      get: (agentId, id) => repo.getPump(agentId, id),
      create: (actor, body) => repo.createPump(actor, body),
      patch: (actor, id, body) => repo.patchPump(actor, id, body),
      remove: (actor, id) => repo.decommissionPump(actor, id),
    },
  );

  // ---------- users ----------
  const security = [{ jwt: [] }];
  r.get(
    '/api/admin/users/',
    {
      onRequest: guard,
      schema: {
        tags: ['admin'],
        security,
        summary: 'List users (agents only)',
        description:
          "The agent's users (agent, company and site users under its agent id) and self-registered users waiting " +
          'for a role (`role` null); `q` searches username, email and name; `role=none` keeps those waiting. Paged ' +
          'like the logs.',
        querystring: UserListQuerySchema,
        response: { 200: z.array(AdminUserSchema), ...errors },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const rows = await repo.listUsers(request.principal!.agentId!, {
        q: q.q,
        limit: q.limit_to,
        before: q.before,
        role: q.role,
      });
      return sendPage(request, reply, rows, q.limit_to);
    },
  );
  r.post(
    '/api/admin/users/',
    {
      onRequest: guard,
      schema: {
        tags: ['admin'],
        security,
        summary: 'Create a user (agents only)',
        description:
          'The new user receives a set-password link (the reset flow: mailed over SMTP when configured, else logged).',
        body: UserCreateSchema,
        response: { 201: AdminUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const user = unwrap(
        await repo.createUser(actor, request.body, await app.accounts.unusablePasswordHash()),
      );
      if (!user.disabled) app.accounts.inviteUser(user.email, actor.username);
      return reply.status(201).send(user);
    },
  );
  r.get(
    '/api/admin/users/:id/',
    {
      onRequest: guard,
      schema: {
        tags: ['admin'],
        security,
        summary: 'One user (agents only)',
        params: IdPathSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) => unwrap(await repo.getUser(request.principal!.agentId!, idOf(request))),
  );
  r.patch(
    '/api/admin/users/:id/',
    {
      onRequest: guard,
      schema: {
        tags: ['admin'],
        security,
        summary: "Change a user's details, role and scope, or disable it (agents only)",
        description:
          '`role` with its `company_ids` / `site_ids` replaces the scope. `disabled: true` ends every session of the ' +
          'user at once (401 on its next call); device tokens are never touched.',
        params: IdPathSchema,
        body: UserPatchSchema,
        response: { 200: AdminUserSchema, ...errors },
      },
    },
    async (request) => {
      const id = idOf(request);
      // Role, scope and disabling take effect on the user's next call: its 'session' change makes every node forget
      // the cached principal (plugins/node-sync.ts).
      const { user } = unwrap(await repo.patchUser(actorOf(request), id, request.body));
      return user;
    },
  );

  await app.register(importRoutes);
  await app.register(auditRoutes);
}
