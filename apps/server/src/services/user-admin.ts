import type { AdminRole, AdminUser, UserCreate, UserPatch } from '@forecourt/contract/admin';
import type { Repositories } from '../repositories/index.ts';
import type { ListOptions } from '../repositories/read-scope.ts';
import { type Actor, auditOf, fleetAt, type Tx } from './actor.ts';
import { conflicting, invalid, missing, notYours, uniqueAs } from './domain-errors.ts';

/**
 * The users an agent administers (docs/product.md#fleet-administration): their details, role and scope, and
 * disabling them. Each change is one unit of work with its audit entry, a 'fleet' change and, when the user's
 * rights, name or state changed, a 'session' change (every node forgets its principal; a disabled user's streams
 * end). A refused change throws a DomainError (domain-errors.ts).
 */
export function createUserAdminService(repos: Repositories) {
  const { userAdmin, work } = repos;

  /**
   * Usernames and emails are one namespace (docs/decisions/0004-accounts-and-passwords.md): the conflict when
   * `username` is another user's email or `email` another user's username (a username or email taken as such is
   * the unique index's conflict), else null.
   */
  async function loginNameClash(q: Tx, names: { username?: string; email?: string }, exceptUserId: number) {
    if (names.username !== undefined && (await userAdmin.taken(q, 'email', names.username, exceptUserId)))
      return conflicting(`username: "${names.username}" is another user's email address.`);
    if (names.email !== undefined && (await userAdmin.taken(q, 'username', names.email, exceptUserId)))
      return conflicting(`email: "${names.email}" is another user's username.`);
    return null;
  }

  /** Company and site ids a user may be given: live ones of the agent; the others are named. */
  async function badScope(q: Tx, agentId: number, role: AdminRole, companyIds: number[], siteIds: number[]) {
    const errors: string[] = [];
    if (role === 'company' && companyIds.length) {
      const ok = await repos.companies.liveIds(q, agentId, companyIds);
      const bad = companyIds.filter((c) => !ok.has(c));
      if (bad.length) errors.push(`company_ids: no company of yours has id ${bad.join(', ')}.`);
    }
    if (role === 'site' && siteIds.length) {
      const ok = await repos.sites.liveIds(q, agentId, siteIds);
      const bad = siteIds.filter((s) => !ok.has(s));
      if (bad.length) errors.push(`site_ids: no site of yours has id ${bad.join(', ')}.`);
    }
    return errors;
  }

  /** The scope rows of a role: its agent id, or its companies, or its sites. */
  const scopeOf = (actor: Actor, role: AdminRole, companyIds: number[], siteIds: number[]) => ({
    agentId: role === 'agent' ? actor.agentId : null,
    companyIds: role === 'company' ? companyIds : [],
    siteIds: role === 'site' ? siteIds : [],
  });

  const loginNameTaken = (body: { username?: string; email?: string }) =>
    uniqueAs({
      users_username_uq: `username: a user named "${body.username}" already exists.`,
      users_email_uq: `email: a user with the address "${body.email}" already exists.`,
    });

  async function mine(agentId: number, id: number, q?: Tx, forUpdate = false): Promise<AdminUser> {
    const found = await userAdmin.byId(agentId, id, q, forUpdate);
    if (!found) throw missing('user', id);
    if (!found.mine) throw notYours();
    return found.user;
  }

  return {
    list: (agentId: number, o: ListOptions & { role?: AdminRole | 'none' }) => userAdmin.list(agentId, o),

    get: (agentId: number, id: number) => mine(agentId, id),

    /** A new user with its role and scope; it sets its password through the reset flow. */
    async create(actor: Actor, body: UserCreate, passwordHash: string): Promise<AdminUser> {
      return work
        .run(async (tx) => {
          const clash = await loginNameClash(tx, body, 0);
          if (clash) throw clash;
          const bad = await badScope(tx, actor.agentId, body.role, body.company_ids, body.site_ids);
          if (bad.length) throw invalid(...bad);
          const scope = scopeOf(actor, body.role, body.company_ids, body.site_ids);
          const id = await userAdmin.insert(tx, { ...body, passwordHash, agentId: scope.agentId });
          await userAdmin.setScope(tx, id, scope, false);
          const user = await mine(actor.agentId, id, tx);
          await tx.audit(auditOf(actor, 'create', 'user', id, null, user));
          await tx.changed([fleetAt(actor.agentId, { userId: id })]);
          return user;
        })
        .catch(loginNameTaken(body));
    },

    /**
     * Changes a user's details, role and scope (`role` with its ids replaces the scope), or disables it. An agent
     * cannot disable itself or take away its own agent role.
     */
    async patch(actor: Actor, id: number, body: UserPatch): Promise<{ user: AdminUser; before: AdminUser }> {
      return work
        .run(async (tx) => {
          const before = await mine(actor.agentId, id, tx, true);
          const clash = await loginNameClash(tx, body, id);
          if (clash) throw clash;
          if (id === actor.userId && body.disabled === true)
            throw conflicting('disabled: you cannot disable your own account.');
          if (id === actor.userId && body.role !== undefined && body.role !== 'agent')
            throw conflicting('role: you cannot take away your own agent role.');
          const role = body.role ?? before.role;
          const scopeChanges =
            body.role !== undefined || body.company_ids !== undefined || body.site_ids !== undefined;
          const companyIds = body.company_ids ?? (body.role !== undefined ? [] : before.company_ids);
          const siteIds = body.site_ids ?? (body.role !== undefined ? [] : before.site_ids);
          if (scopeChanges) {
            if (role === null)
              throw invalid("role: give the user a role ('agent', 'company' or 'site') with its scope.");
            if (role === 'company' && !companyIds.length)
              throw invalid('company_ids must name at least one company for a company user');
            if (role === 'site' && !siteIds.length)
              throw invalid('site_ids must name at least one site for a site user');
            const bad = await badScope(tx, actor.agentId, role, companyIds, siteIds);
            if (bad.length) throw invalid(...bad);
          }
          await userAdmin.update(tx, id, {
            username: body.username ?? before.username,
            email: body.email ?? before.email,
            name: body.name ?? before.name,
            disabled: body.disabled ?? null,
          });
          if (scopeChanges && role !== null)
            await userAdmin.setScope(tx, id, scopeOf(actor, role, companyIds, siteIds), true);
          const user = await mine(actor.agentId, id, tx);
          if (JSON.stringify(user) !== JSON.stringify(before)) {
            const action = body.disabled === true && !before.disabled ? 'disable' : 'update';
            await tx.audit(auditOf(actor, action, 'user', id, before, user));
            await tx.changed([fleetAt(actor.agentId, { userId: id }), { kind: 'session', userId: id }]);
          }
          return { user, before };
        })
        .catch(loginNameTaken(body));
    },
  };
}
export type UserAdminService = ReturnType<typeof createUserAdminService>;
