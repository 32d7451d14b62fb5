import { useParams } from 'react-router';

/** A positive whole number from a route parameter, else null (the page then says it is not found). */
export function parseId(value: string | undefined): number | null {
  if (!value || !/^\d{1,12}$/.test(value)) return null;
  const n = Number(value);
  return n > 0 ? n : null;
}

export function useRouteIds() {
  const params = useParams();
  return {
    agentId: parseId(params.agentId),
    companyId: parseId(params.companyId),
    siteId: parseId(params.siteId),
    raw: params,
  };
}
