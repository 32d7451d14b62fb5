import type { CurrentUser } from '@forecourt/contract/users';
import type { Scope } from './scope.ts';

/**
 * Where notifications come from, by user kind: the agent's alerts if the agent id is a positive number; else
 * the first company's; else the first site's; otherwise none. Free of the query modules and their schemas: the
 * entry chunk asks for the bell's reads early with it (app/preload.ts).
 */
export function notificationScope(
  user: Pick<CurrentUser, 'agent' | 'companies' | 'sites'> | null,
): Scope | null {
  if (!user) return null;
  if (typeof user.agent === 'number' && user.agent > 0) return { kind: 'agent', id: user.agent };
  if (user.companies?.length) return { kind: 'company', id: user.companies[0].id };
  if (user.sites?.length) return { kind: 'site', id: user.sites[0].id };
  return null;
}
