import { randomBytes } from 'node:crypto';
import type { Severity } from '@forecourt/contract/events';
import {
  type ContactPointCreate,
  type ContactPointPatch,
  contactPointProblems,
  NOTIFICATION_TEXTS,
  type NotificationPolicyCreate,
  type NotificationPolicyPatch,
  type Owner,
} from '@forecourt/contract/notifications';
import { badRequest, forbidden, notFound } from '../lib/errors.ts';
import { canReach } from '../plugins/scope.ts';
import type { ContactPointFields, ContactPointRecord } from '../repositories/contact-point-repository.ts';
import type { Repositories } from '../repositories/index.ts';
import type { PolicyFields, PolicyRecord } from '../repositories/notification-policy-repository.ts';
import { publicContactPoint, publicPolicy } from '../repositories/notification-read-model.ts';
import type { Principal } from '../repositories/principal-repository.ts';
import type { Place } from '../repositories/rule-repository.ts';
import { type AllowList, checkUrl } from './outbound-http.ts';
import { fleetChange, placeWrites } from './place-writes.ts';
import type { TargetService } from './targets.ts';

const recordPoint = placeWrites<ContactPointRecord>('contact_point', publicContactPoint);
const recordPolicy = placeWrites<PolicyRecord>('notification_policy', publicPolicy);

const visibility = (p: Principal) => ({ agentId: p.agentId, companyIds: p.companyIds, siteIds: p.siteIds });

/** A new webhook signing key: 32 random bytes, base64url. */
export const newSecret = () => randomBytes(32).toString('base64url');

/**
 * The rules of contact points and notification policies (docs/integrations.md): agents and company users manage
 * them inside their scope (site users: 403); a contact point belongs to a scope (default the caller's own); its URL
 * must be http(s) and not reach an internal address (unless allowed); a policy aims at a target the caller reaches
 * and names only contact points (and rules) the caller manages. Every write is one unit of work, audited, on the
 * change feed.
 */
export function createNotificationService(repos: Repositories, targets: TargetService, allow: AllowList) {
  /** Site users manage nothing here. */
  function manager(p: Principal) {
    if (p.agentId === null && p.companyIds.length === 0) throw forbidden(NOTIFICATION_TEXTS.siteUsers);
  }

  async function ownerPlace(p: Principal, owner: Owner | undefined): Promise<{ owner: Owner; place: Place }> {
    const o: Owner =
      owner ??
      (p.agentId !== null ? { kind: 'agent', id: p.agentId } : { kind: 'company', id: p.companyIds[0]! });
    const loc = await repos.org.locate(o.kind, o.id);
    if (!loc) throw badRequest(`owner.id: no ${o.kind} with id ${o.id}`);
    if (!canReach(p, o.kind, o.id, loc))
      throw forbidden(`The owner ${o.kind} ${o.id} is outside your scope.`);
    return { owner: o, place: { agentId: loc.agentId, companyId: loc.companyId, siteId: loc.siteId } };
  }

  async function checkedUrl(url: string | null | undefined): Promise<void> {
    if (!url) return;
    const verdict = await checkUrl(url, allow);
    if (!verdict.ok) throw badRequest(`url ${verdict.reason}: notifications only go to public addresses`);
  }

  async function loadPoint(p: Principal, id: number): Promise<ContactPointRecord> {
    manager(p);
    const found = await repos.contactPoints.byId(id, visibility(p));
    if (!found) throw notFound(`No contact point with id ${id}.`);
    if (!found.visible) throw forbidden();
    return found.point;
  }

  async function loadPolicy(p: Principal, id: number): Promise<PolicyRecord> {
    manager(p);
    const found = await repos.notificationPolicies.byId(id, visibility(p));
    if (!found) throw notFound(`No notification policy with id ${id}.`);
    if (!found.visible) throw forbidden();
    return found.policy;
  }

  const actor = (p: Principal) => ({ userId: p.userId, username: p.username });

  /** The ids a policy names: every contact point managed by the caller, every rule readable by it (400 naming the field). */
  async function checkReferences(
    p: Principal,
    f: Pick<PolicyFields, 'contactPointIds' | 'escalateToIds' | 'ruleIds'>,
  ) {
    const problems: string[] = [];
    const v = visibility(p);
    for (const [field, ids] of [
      ['contact_point_ids', f.contactPointIds],
      ['escalate_to_ids', f.escalateToIds],
    ] as const) {
      const unknown = await repos.contactPoints.unknownOf(ids, v);
      if (unknown.length) problems.push(`${field}: no contact point of yours with id ${unknown.join(', ')}`);
    }
    const missingRules: number[] = [];
    for (const id of f.ruleIds) {
      const r = await repos.rules.byId(id, v);
      if (!r?.visible) missingRules.push(id);
    }
    if (missingRules.length) problems.push(`rule_ids: no rule with id ${missingRules.join(', ')}`);
    if (problems.length) throw badRequest(problems);
  }

  return {
    manager,

    /**
     * The user's alert-mail preference (docs/decisions/0025-notifications.md): one unit of work sets it, and the
     * trigger on `users` creates, moves or deletes the user's own email contact point with it; audited, and on the
     * change feed so the Notifications page follows.
     */
    async setAlertMail(p: Principal, minSeverity: Severity | null) {
      const was = (await repos.notifications.prefs(p.userId))?.email_min_severity ?? null;
      const before = await repos.notifications.personalPoint(p.userId);
      await repos.work.run(async (tx) => {
        const after = await repos.notifications.setPrefs(tx, p.userId, minSeverity);
        const point = after ?? before;
        await tx.audit({
          userId: p.userId,
          username: p.username,
          agentId: point?.agentId ?? p.agentId,
          action: 'update',
          entity: 'alert_mail',
          entityId: p.userId,
          before: { email_min_severity: was, contact_point_id: before?.id ?? null },
          after: { email_min_severity: minSeverity, contact_point_id: after?.id ?? null },
        });
        const changes = [before, after].filter((x) => x !== null).map((x) => fleetChange(x));
        if (changes.length) await tx.changed(changes);
      });
    },

    contactPoints: {
      list(p: Principal, page: { limit: number; before?: string }) {
        manager(p);
        return repos.contactPoints.list(visibility(p), page);
      },
      get: loadPoint,

      /** Creates a contact point; answers it and its secret (shown this once). */
      async create(p: Principal, b: ContactPointCreate) {
        manager(p);
        const { owner, place } = await ownerPlace(p, b.owner);
        const url = b.kind === 'email' ? null : (b.url ?? null);
        await checkedUrl(url);
        const secret = b.secret ?? (b.kind === 'webhook' ? newSecret() : null);
        const fields: ContactPointFields = {
          name: b.name,
          kind: b.kind,
          addresses: b.kind === 'email' ? [...new Set(b.addresses ?? [])] : [],
          url,
          secret,
          ownerKind: owner.kind,
          ownerId: owner.id,
          place,
        };
        const point = await repos.work.run(async (tx) => {
          const created = await repos.contactPoints.insert(tx, actor(p), fields);
          await recordPoint(tx, p, 'create', { before: null, after: created });
          return created;
        });
        return { point, secret };
      },

      async patch(p: Principal, id: number, b: ContactPointPatch) {
        const before = await loadPoint(p, id);
        const merged = {
          kind: before.kind,
          addresses: b.addresses ?? before.addresses,
          url: b.url !== undefined ? b.url : before.url,
        };
        const problems = contactPointProblems(merged);
        if (problems.length) throw badRequest(problems.map((x) => x.message));
        const { owner, place } = b.owner
          ? await ownerPlace(p, b.owner)
          : { owner: before.owner, place: before.place };
        if (b.url !== undefined) await checkedUrl(merged.url);
        const fields: ContactPointFields = {
          name: b.name ?? before.name,
          kind: before.kind,
          addresses: before.kind === 'email' ? [...new Set(merged.addresses)] : [],
          url: before.kind === 'email' ? null : merged.url,
          secret: b.secret ?? before.secret,
          ownerKind: owner.kind,
          ownerId: owner.id,
          place,
        };
        return repos.work.run(async (tx) => {
          const after = await repos.contactPoints.update(tx, id, fields);
          await recordPoint(tx, p, 'update', { before, after });
          return after;
        });
      },

      async remove(p: Principal, id: number) {
        const before = await loadPoint(p, id);
        await repos.work.run(async (tx) => {
          await repos.contactPoints.remove(tx, id);
          await recordPoint(tx, p, 'delete', { before, after: null });
        });
        return before;
      },
    },

    policies: {
      list(p: Principal, page: { limit: number; before?: string }) {
        manager(p);
        return repos.notificationPolicies.list(visibility(p), page);
      },
      get: loadPolicy,

      async create(p: Principal, b: NotificationPolicyCreate) {
        manager(p);
        const loc = await targets.authorize(p, b.target);
        const place = { agentId: loc.agentId, companyId: loc.companyId, siteId: loc.siteId };
        const fields: PolicyFields = {
          name: b.name,
          scopeKind: b.target.scope.kind,
          scopeId: b.target.scope.id,
          tags: b.target.tags,
          place,
          minSeverity: b.min_severity,
          eventTypes: b.event_types,
          ruleIds: b.rule_ids,
          contactPointIds: b.contact_point_ids,
          escalateAfterS: b.escalate_after_s,
          escalateToIds: b.escalate_to_ids,
          enabled: b.enabled,
        };
        await checkReferences(p, fields);
        return repos.work.run(async (tx) => {
          const created = await repos.notificationPolicies.insert(tx, actor(p), fields);
          await recordPolicy(tx, p, 'create', { before: null, after: created });
          return created;
        });
      },

      async patch(p: Principal, id: number, b: NotificationPolicyPatch) {
        const before = await loadPolicy(p, id);
        const merged = {
          escalate_after_s: b.escalate_after_s !== undefined ? b.escalate_after_s : before.escalate_after_s,
          escalate_to_ids: b.escalate_to_ids ?? before.escalate_to_ids,
        };
        let place = before.place;
        const target = b.target ?? before.target;
        if (b.target) {
          const loc = await targets.authorize(p, b.target);
          place = { agentId: loc.agentId, companyId: loc.companyId, siteId: loc.siteId };
        }
        const fields: PolicyFields = {
          name: b.name ?? before.name,
          scopeKind: target.scope.kind,
          scopeId: target.scope.id,
          tags: target.tags,
          place,
          minSeverity: b.min_severity ?? before.min_severity,
          eventTypes: b.event_types ?? before.event_types,
          ruleIds: b.rule_ids ?? before.rule_ids,
          contactPointIds: b.contact_point_ids ?? before.contact_point_ids,
          escalateAfterS: merged.escalate_after_s,
          escalateToIds: merged.escalate_to_ids,
          enabled: b.enabled ?? before.enabled,
        };
        await checkReferences(p, {
          contactPointIds: b.contact_point_ids ?? [],
          escalateToIds: b.escalate_to_ids ?? [],
          ruleIds: b.rule_ids ?? [],
        });
        return repos.work.run(async (tx) => {
          const after = await repos.notificationPolicies.update(tx, id, fields);
          await recordPolicy(tx, p, 'update', { before, after });
          return after;
        });
      },

      async remove(p: Principal, id: number) {
        const before = await loadPolicy(p, id);
        await repos.work.run(async (tx) => {
          await repos.notificationPolicies.remove(tx, id);
          await recordPolicy(tx, p, 'delete', { before, after: null });
        });
        return before;
      },
    },
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;
