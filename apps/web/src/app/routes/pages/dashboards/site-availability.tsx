import { AvailabilityReportSchema } from '@forecourt/contract/reports';
import { Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatLocale } from '../../../../i18n/languages.ts';
import { api } from '../../../../lib/api-client.ts';

/** The site's availability over the last 30 days (the report's default period), refreshed every 5 minutes at most. */
export const siteAvailabilityQuery = (siteId: number) =>
  queryOptions({
    queryKey: ['reports', 'site', siteId, 'availability', 'last-30-days'] as const,
    queryFn: ({ signal }) =>
      api.get(`/api/reports/site/${siteId}/availability/`, { schema: AvailabilityReportSchema, signal }),
    staleTime: 5 * 60_000,
  });

/** A small line in the site dashboard's header; loaded after the dashboard's first view, so it costs it nothing. */
export default function SiteAvailability({ siteId }: { siteId: number }) {
  const { t, i18n } = useTranslation();
  const query = useQuery(siteAvailabilityQuery(siteId));
  if (!query.data) return null;
  const value = new Intl.NumberFormat(formatLocale(i18n.resolvedLanguage ?? i18n.language), {
    style: 'percent',
    maximumFractionDigits: 2,
  }).format(query.data.total.availability);
  return (
    <Text c="dimmed" fz="sm" data-testid="site-availability">
      {t('REPORTS_SITE_AVAILABILITY', { value })}
    </Text>
  );
}
