import type { LogKindKey } from '@forecourt/contract/log-paths';
import type { ComponentType } from 'react';
import { useParams } from 'react-router';
import type { LogScope } from '../../../../lib/api/logs.ts';
import { LOG_KINDS } from './log-kinds.tsx';
import { LogScreen } from './log-screen.tsx';

const positiveInt = (v: string | undefined) =>
  v && /^\d{1,9}$/.test(v) && Number(v) > 0 ? Number(v) : undefined;

/** The scope of a log route: `site/:siteId/...`, `company/:companyId/site/:siteId/...`, `company/:companyId/...`, `agent/:agentId/...`. */
export function scopeFromParams(params: Record<string, string | undefined>): LogScope | null {
  const site = positiveInt(params.siteId);
  const company = positiveInt(params.companyId);
  const agent = positiveInt(params.agentId);
  if (params.siteId !== undefined) return site ? { kind: 'site', id: site, companyId: company } : null;
  if (params.companyId !== undefined) return company ? { kind: 'company', id: company } : null;
  if (params.agentId !== undefined) return agent ? { kind: 'agent', id: agent } : null;
  return null;
}

function makePage(key: LogKindKey): ComponentType {
  function LogPage() {
    const params = useParams();
    const scope = scopeFromParams(params);
    const kind = LOG_KINDS[key];
    // A non-numeric id is a log that cannot exist: the API's 404 says so on the screen.
    return (
      <LogScreen
        key={`${key}:${JSON.stringify(scope)}`}
        kind={kind}
        scope={scope ?? { kind: 'site', id: 0 }}
      />
    );
  }
  LogPage.displayName = `LogPage(${key})`;
  return LogPage;
}

/** One page component per log, for the route table (`logRoutePatterns()` of the contract). */
export const LOG_PAGES = Object.fromEntries(
  (Object.keys(LOG_KINDS) as LogKindKey[]).map((key) => [key, makePage(key)]),
) as Record<LogKindKey, ComponentType>;
