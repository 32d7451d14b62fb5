import {
  AlertRuleCreateSchema,
  AlertRuleListQuerySchema,
  AlertRulePatchSchema,
  AlertRulePreviewRequestSchema,
  AlertRulePreviewSchema,
  AlertRuleSchema,
  RULE_PREVIEW_HOURS,
  RULE_TEXTS,
  ruleProblems,
} from '@forecourt/contract/alert-rules';
import { ErrorBodySchema } from '@forecourt/contract/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { sendPage } from '../../lib/paging.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { actorOf, checkWritable, placeOf, visibilityOf } from '../../lib/targets-of.ts';
import { parseId } from '../../plugins/scope.ts';
import { publicRule } from '../../repositories/rule-read-model.ts';
import type { RuleFields, RuleRecord } from '../../repositories/rule-repository.ts';
import { createRuleAdminService } from '../../services/rule-admin.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const security = [{ jwt: [] }];
const tags = ['rules'];

const fieldsOf = (r: Omit<RuleRecord, 'id' | 'created_by' | 'created_at'>): RuleFields => ({
  name: r.name,
  scopeKind: r.target.scope.kind,
  scopeId: r.target.scope.id,
  tags: r.target.tags,
  place: r.place,
  signal: r.signal,
  op: r.op,
  threshold: r.threshold,
  forS: r.for_s,
  clearThreshold: r.clear_threshold,
  severity: r.severity,
  enabled: r.enabled,
});

/**
 * Alert rules (docs/rules-and-maintenance.md): `GET|POST /api/rules/`, `GET|PATCH|DELETE /api/rules/{id}/`. Agents
 * and company users write rules inside their scope; site users read the rules that reach their sites (403 on writes).
 */
export async function ruleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const rules = createRuleAdminService(app.repos);

  /** Authenticated, and not a site user (they read rules only). */
  const writer = async (request: FastifyRequest) => {
    await app.authenticate(request);
    const p = request.principal!;
    if (p.agentId === null && p.companyIds.length === 0) throw forbidden(RULE_TEXTS.readOnly);
  };

  /** The rule of the path: 404 unknown (or not numeric), 403 when the caller does not read it. */
  const load = async (request: FastifyRequest): Promise<RuleRecord> => {
    const id = parseId((request.params as { id?: unknown }).id);
    if (id === null) throw notFound();
    const found = await app.repos.rules.byId(id, visibilityOf(request));
    if (!found) throw notFound(`No rule with id ${id}.`);
    if (!found.visible) throw forbidden();
    return found.rule;
  };

  app.get(
    '/api/rules/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Alert rules the caller reads, newest first',
        description:
          'Rules inside the caller’s scope and those reaching into it (a site user reads the rules that reach its sites). Paged with `limit_to` and `before` (the id of the last row seen, also in `X-Next-Cursor` and `Link`).',
        querystring: AlertRuleListQuerySchema,
        response: { 200: z.array(AlertRuleSchema), ...errors },
      },
    },
    async (request, reply) => {
      const rows = await app.repos.rules.list(visibilityOf(request), {
        limit: request.query.limit_to,
        before: request.query.before,
      });
      return sendPage(request, reply, rows.map(publicRule), request.query.limit_to);
    },
  );

  app.post(
    '/api/rules/',
    {
      onRequest: writer,
      schema: {
        tags,
        security,
        summary: 'Create an alert rule (agents and company users, inside their scope)',
        body: AlertRuleCreateSchema,
        response: { 201: AlertRuleSchema, ...errors },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const place = await placeOf(app, request, b.target);
      const rule = await rules.create(actorOf(request), {
        ...fieldsOf({ ...b, op: b.op ?? '>=', clear_threshold: b.clear_threshold ?? null, place }),
      });
      return reply.status(201).send(publicRule(rule));
    },
  );

  app.post(
    '/api/rules/preview/',
    {
      onRequest: writer,
      schema: {
        tags,
        security,
        summary: 'What a rule, unsaved, would have fired on over the last 7 days (from the hourly roll-ups)',
        description:
          'The body is the rule as the editor has it (`name`, `severity` and `enabled` optional), checked like a ' +
          'creation (400 naming every bad field; 403 for a target outside the caller’s scope). Reads the hourly ' +
          'roll-ups of the 168 hours before the current one: how many terminals of the target would have fired, ' +
          'roughly how many alerts, and the first `limit_to` terminals. Hour granularity: a `for_s` condition is ' +
          'judged on whole hours (docs/rules-and-maintenance.md). `no_sales` answers `available: false`. Writes nothing.',
        body: AlertRulePreviewRequestSchema,
        response: { 200: AlertRulePreviewSchema, ...errors },
      },
    },
    async (request) => {
      const b = request.body;
      await placeOf(app, request, b.target);
      const to = new Date();
      to.setUTCMinutes(0, 0, 0);
      const from = new Date(to.getTime() - RULE_PREVIEW_HOURS * 3_600_000);
      const range = { from: from.toISOString(), to: to.toISOString() };
      if (b.signal === 'no_sales') {
        const reached = await app.targets.preview(b.target, 0);
        return { available: false, ...range, terminals: reached.count, fired: 0, alerts: 0, first: [] };
      }
      const answer = await app.repos.rulePreview.preview(
        {
          target: b.target,
          signal: b.signal,
          op: b.op ?? '>=',
          threshold: b.threshold,
          for_s: b.for_s,
          clear_threshold: b.clear_threshold ?? null,
        },
        { from, to },
        b.limit_to,
      );
      return { available: true, ...range, ...answer };
    },
  );

  app.get(
    '/api/rules/:id/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'One alert rule',
        params: IdPathSchema,
        response: { 200: AlertRuleSchema, ...errors },
      },
    },
    async (request) => publicRule(await load(request)),
  );

  app.patch(
    '/api/rules/:id/',
    {
      onRequest: writer,
      schema: {
        tags,
        security,
        summary: 'Change an alert rule',
        description:
          'Any field of the creation. Disabling it clears its active alerts; changing its target or condition clears them too and evaluates afresh from the next reading.',
        params: IdPathSchema,
        body: AlertRulePatchSchema,
        response: { 200: AlertRuleSchema, ...errors },
      },
    },
    async (request) => {
      const before = await load(request);
      await checkWritable(app, request, before.target, before.place);
      const b = request.body;
      const merged = {
        ...before,
        ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)),
      } as RuleRecord;
      if (b.signal === 'no_sales' && b.op === undefined) merged.op = '>=';
      const problems = ruleProblems(merged);
      if (problems.length) throw badRequest(problems.map((p) => p.message));
      const place = b.target ? await placeOf(app, request, b.target) : before.place;
      const rule = await rules.update(actorOf(request), before, fieldsOf({ ...merged, place }), new Date());
      return publicRule(rule);
    },
  );

  app.delete(
    '/api/rules/:id/',
    {
      onRequest: writer,
      schema: {
        tags,
        security,
        summary: 'Delete an alert rule: its active alerts clear (the logs keep them); answers it as it was',
        params: IdPathSchema,
        response: { 200: AlertRuleSchema, ...errors },
      },
    },
    async (request) => {
      const before = await load(request);
      await checkWritable(app, request, before.target, before.place);
      await rules.remove(actorOf(request), before, new Date());
      return publicRule(before);
    },
  );
}
