import { z } from 'zod';

/** Who a read, an action or a log is scoped to: an agent, a company or a site (docs/api-logs.md). */
export const SCOPE_KINDS = ['agent', 'company', 'site'] as const;
export const ScopeKindSchema = z.enum(SCOPE_KINDS);
export type ScopeKind = (typeof SCOPE_KINDS)[number];
