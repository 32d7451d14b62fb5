import { type Change, isPublicChange } from '../../repositories/change-repository.ts';
import type { Principal } from '../../repositories/principal-repository.ts';

/** A change as it travels: its id and its JSON text, built once for every stream it reaches. */
export interface Item {
  id: number;
  json: string;
}

/** What a principal reaches: its agent's changes, its companies', its sites'. */
export interface Scope {
  agentId: number | null;
  companyIds: readonly number[];
  siteIds: readonly number[];
}

export const scopeOf = (p: Principal): Scope => ({
  agentId: p.agentId,
  companyIds: p.companyIds,
  siteIds: p.siteIds,
});

export const scopeKey = (s: Scope) => `${s.agentId ?? ''}|${s.companyIds.join(',')}|${s.siteIds.join(',')}`;

/**
 * Whether a change reaches a scope (docs/decisions/0015-live-fleet.md): agent user → its agent id; company user →
 * one of its companies; site user → one of its sites. An id the change lacks reaches nobody through it; internal
 * kinds (session, device) reach nobody.
 */
export function reaches(scope: Scope, c: Change): boolean {
  if (!isPublicChange(c.kind)) return false;
  if (scope.agentId !== null && c.agentId === scope.agentId) return true;
  if (c.companyId !== null && scope.companyIds.includes(c.companyId)) return true;
  return c.siteId !== null && scope.siteIds.includes(c.siteId);
}

/** The open streams of one scope: a change is matched once per scope, then handed to each of its members. */
export interface ScopeGroup<M> {
  readonly key: string;
  readonly scope: Scope;
  readonly members: Set<M>;
  /** The last change matched (a change can reach a scope by its agent, company and site: counted once). */
  lastId: number;
}

/**
 * Which open streams a change reaches: the streams grouped by scope, the groups indexed by agent, company and site
 * id, so a change costs three map lookups whatever the number of streams.
 */
export class ScopeIndex<M> {
  private readonly groups = new Map<string, ScopeGroup<M>>();
  private readonly byAgent = new Map<number, Set<ScopeGroup<M>>>();
  private readonly byCompany = new Map<number, Set<ScopeGroup<M>>>();
  private readonly bySite = new Map<number, Set<ScopeGroup<M>>>();

  /** Scopes with at least one member. */
  get size() {
    return this.groups.size;
  }

  /** Adds a member to the group of its scope (made on first use). */
  join(member: M, scope: Scope): ScopeGroup<M> {
    const key = scopeKey(scope);
    let group = this.groups.get(key);
    if (!group) {
      group = { key, scope, members: new Set(), lastId: 0 };
      this.groups.set(key, group);
      this.indexGroup(group, true);
    }
    group.members.add(member);
    return group;
  }

  /** Removes a member; its group goes with its last member. */
  leave(member: M, group: ScopeGroup<M>) {
    group.members.delete(member);
    if (group.members.size) return;
    if (this.groups.get(group.key) === group) this.groups.delete(group.key);
    this.indexGroup(group, false);
  }

  /**
   * The changes (in id order) that reach each group, each encoded once by `encode`; internal kinds reach none.
   * A change reaching a group by several of its ids is listed once.
   */
  match(changes: readonly Change[], encode: (c: Change) => Item): Map<ScopeGroup<M>, Item[]> {
    const reached = new Map<ScopeGroup<M>, Item[]>();
    for (const c of changes) {
      if (!isPublicChange(c.kind)) continue;
      let item: Item | undefined;
      const reach = (set: Set<ScopeGroup<M>> | undefined) => {
        if (!set) return;
        for (const group of set) {
          if (group.lastId >= c.id) continue;
          group.lastId = c.id;
          item ??= encode(c);
          const list = reached.get(group);
          if (list) list.push(item);
          else reached.set(group, [item]);
        }
      };
      if (c.agentId !== null) reach(this.byAgent.get(c.agentId));
      if (c.companyId !== null) reach(this.byCompany.get(c.companyId));
      if (c.siteId !== null) reach(this.bySite.get(c.siteId));
    }
    return reached;
  }

  private indexGroup(group: ScopeGroup<M>, add: boolean) {
    if (group.scope.agentId !== null) index(this.byAgent, group.scope.agentId, group, add);
    for (const id of group.scope.companyIds) index(this.byCompany, id, group, add);
    for (const id of group.scope.siteIds) index(this.bySite, id, group, add);
  }
}

function index<G>(map: Map<number, Set<G>>, key: number, group: G, add: boolean) {
  const set = map.get(key);
  if (add) {
    if (set) set.add(group);
    else map.set(key, new Set([group]));
  } else if (set) {
    set.delete(group);
    if (!set.size) map.delete(key);
  }
}
