import { SiteTerminalSchema } from '@forecourt/contract/fleet';
import { logApiPath } from '@forecourt/contract/log-paths';
import { AlertLogEntrySchema } from '@forecourt/contract/logs';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { polled } from '../../../../lib/api/live.ts';
import { QUERY_ROOTS, scopedKey } from '../../../../lib/api/query-keys.ts';
import { api } from '../../../../lib/api-client.ts';

/** How many of a terminal's latest alerts and commands its page lists. */
export const RECENT_LIMIT = 10;

/** A site's terminal as its list answers it; `tags` and `software_version` shown when the server sends them. */
export const TerminalDetailSchema = SiteTerminalSchema.extend({
  tags: z.array(z.string()).optional(),
  software_version: z.string().nullable().optional(),
});
export type TerminalDetail = z.infer<typeof TerminalDetailSchema>;

const site = (siteId: number) => ({ kind: 'site', id: siteId }) as const;

export const terminalPageQueries = {
  /**
   * GET /api/site/{id}/terminals/ with every field the page shows, under its own key (the reboot widget keeps only
   * the number): a connectivity or fleet change of the site refreshes it with the site's other terminal lists.
   */
  siteTerminals: (siteId: number) =>
    queryOptions({
      queryKey: [...scopedKey(QUERY_ROOTS.terminals, site(siteId)), 'details'] as const,
      queryFn: ({ signal }) =>
        api.get(`/api/site/${siteId}/terminals/`, { schema: z.array(TerminalDetailSchema), signal }),
      ...polled,
    }),
  /**
   * The terminal's newest alerts, from its site's alert log filtered by its number (`?terminal=` also takes an id;
   * a number that is another terminal's id is left out here): keyed like that log's pages, so an alert of the site
   * refreshes it.
   */
  recentAlerts: (siteId: number, terminalId: number, terminalNumber: string) =>
    queryOptions({
      queryKey: [
        ...scopedKey(QUERY_ROOTS.logs, site(siteId)),
        'alert/log',
        { terminal: terminalNumber, limit_to: RECENT_LIMIT },
      ] as const,
      queryFn: async ({ signal }) => {
        const rows = await api.get(logApiPath('alert', 'site', siteId), {
          query: { terminal: terminalNumber, limit_to: RECENT_LIMIT },
          schema: z.array(AlertLogEntrySchema),
          signal,
        });
        return rows.filter((a) => a.terminal_id === terminalId);
      },
      ...polled,
    }),
};
