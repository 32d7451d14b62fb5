import {
  ADMIN_ENTITIES,
  ADMIN_REQUEST_SCHEMAS,
  AdminConflictSchema,
  AdminUserSchema,
  UserCreateSchema,
  UserListQuerySchema,
  UserPatchSchema,
} from '@forecourt/contract/admin';
import { ADMIN_ENTITY_NAMES } from '@forecourt/contract/admin-entities';
import { API_KEY_TEXTS } from '@forecourt/contract/api-keys';
import { ErrorBodySchema } from '@forecourt/contract/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer } from '../../lib/domain-answer.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { sendPage } from '../../lib/paging.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { parseId } from '../../plugins/scope.ts';
import type { Actor } from '../../services/actor.ts';
import { createFleetService } from '../../services/fleet.ts';
import { createUserAdminService } from '../../services/user-admin.ts';
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

/** `:id` of an admin path: non-numeric → 404. */
export function idOf(request: FastifyRequest): number {
  const id = parseId((request.params as { id?: unknown }).id);
  if (id === null) throw notFound();
  return id;
}

/** The list query of an admin path: search, paging, the parent it keeps (`site_id`...) and terminal tags. */
type ListQuery = {
  q?: string;
  limit_to: number;
  before?: string;
  tag?: string[];
} & { [parent: `${string}_id`]: number | undefined };
/** The repositories' list options: every `<parent>_id` filter as `<parent>Id` (`site_id` → `siteId`). */
const listOptions = ({ q, limit_to, before, tag, ...parents }: ListQuery) => ({
  q,
  limit: limit_to,
  before,
  tags: tag,
  ...(Object.fromEntries(
    Object.entries(parents)
      .filter(([key]) => key.endsWith('_id'))
      .map(([key, id]) => [key.replace(/_id$/, 'Id'), id]),
  ) as {
    [parent: `${string}Id`]: number | undefined;
  }),
});

interface EntitySpec {
  path: string;
  name: string;
  row: z.ZodType;
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
  const fleet = createFleetService(app.repos);
  const users = createUserAdminService(app.repos);

  /** An entity's five routes; the bodies reach its service as their schemas parsed them. */
  function entityRoutes(
    spec: EntitySpec,
    impl: {
      list: (agentId: number, o: ReturnType<typeof listOptions>) => Promise<Array<{ id: number }>>;
      get: (agentId: number, id: number) => Promise<unknown>;
      create: (actor: Actor, body: never) => Promise<unknown>;
      patch: (actor: Actor, id: number, body: never) => Promise<unknown>;
      decommission: (actor: Actor, id: number) => Promise<unknown>;
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
          response: { 200: z.array(spec.row), ...errors },
        },
      },
      async (request, reply) => {
        const q = request.query as ListQuery;
        const rows = await impl.list(request.principal!.agentId!, listOptions(q));
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
          response: { 201: spec.row, ...errors },
        },
      },
      async (request, reply) => {
        const value = await answer(impl.create(actorOf(request), request.body as never));
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
          response: { 200: spec.row, ...errors },
        },
      },
      async (request) => answer(impl.get(request.principal!.agentId!, idOf(request))),
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
          response: { 200: spec.row, ...errors },
        },
      },
      async (request) => {
        const id = idOf(request);
        return answer(impl.patch(actorOf(request), id, request.body as never));
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
          response: { 200: spec.row, ...errors },
        },
      },
      async (request) => {
        const id = idOf(request);
        return answer(impl.decommission(actorOf(request), id));
      },
    );
  }

  // Every administered entity but the users (their routes follow): its schemas from the contract, its rules from
  // the fleet service.
  for (const name of ADMIN_ENTITY_NAMES) {
    if (name === 'users') continue;
    entityRoutes(
      {
        path: name,
        name: ADMIN_ENTITIES[name].one,
        row: ADMIN_ENTITIES[name].row,
        ...ADMIN_REQUEST_SCHEMAS[name],
      },
      fleet[name],
    );
  }

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
      const rows = await users.list(request.principal!.agentId!, { ...listOptions(q), role: q.role });
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
      const user = await answer(users.create(actor, request.body, await app.accounts.unusablePasswordHash()));
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
    async (request) => answer(users.get(request.principal!.agentId!, idOf(request))),
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
      // What a key may not do through the profile (email, name), it may not do here either.
      if (request.apiKey && id === request.principal!.userId)
        throw forbidden(API_KEY_TEXTS.keysCannot('change its own account'));
      // Role, scope and disabling take effect on the user's next call: its 'session' change makes every node forget
      // the cached principal (plugins/node-sync.ts).
      const { user } = await answer(users.patch(actorOf(request), id, request.body));
      return user;
    },
  );

  await app.register(importRoutes);
  await app.register(auditRoutes);
}
