import { apiUrl } from '../../../../lib/api-url.ts';
import type { FleetScope } from '../../../../lib/scope.ts';

/**
 * The URLs `prefetchFleetDashboard` (first-reads.ts) reads, without the query modules and their schemas: the
 * entry chunk sends them early (lib/early-reads.ts). A test holds the two lists to each other.
 */
export function fleetFirstReadUrls(scope: FleetScope): string[] {
  const base = `/api/${scope.kind}/${scope.id}`;
  return [`${base}/map/terminals/`, '/api/config', `${base}/sites/`, `${base}/time/zones/`].map((p) =>
    apiUrl(p),
  );
}
