import {
  type AlertRule,
  type AlertRuleCreateInput,
  type AlertRulePatch,
  type AlertRulePreviewRequest,
  AlertRulePreviewSchema,
  AlertRuleSchema,
} from '@forecourt/contract/alert-rules';
import { type TargetInput, TargetPreviewSchema } from '@forecourt/contract/targets';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api, apiRequest } from '../api-client.ts';
import { QUERY_ROOTS } from './query-keys.ts';

/** How many rules the Rules page lists at once (the API's most). */
export const RULES_LIMIT = 1000;

/** `GET|POST /api/rules/`, `GET|PATCH|DELETE /api/rules/{id}/` (docs/rules-and-maintenance.md). */
export const ruleQueries = {
  all: [QUERY_ROOTS.rules] as const,
  list: () =>
    queryOptions({
      queryKey: [QUERY_ROOTS.rules, 'list'] as const,
      queryFn: ({ signal }) =>
        api.get('/api/rules/', {
          query: { limit_to: RULES_LIMIT },
          schema: z.array(AlertRuleSchema),
          signal,
        }),
    }),
};

export const createRule = (body: AlertRuleCreateInput): Promise<AlertRule> =>
  api.post('/api/rules/', body, { schema: AlertRuleSchema });

export const patchRule = (id: number, body: AlertRulePatch): Promise<AlertRule> =>
  apiRequest(`/api/rules/${id}/`, { method: 'PATCH', body, schema: AlertRuleSchema });

export const deleteRule = (id: number): Promise<AlertRule> =>
  api.delete(`/api/rules/${id}/`, { schema: AlertRuleSchema });

/** `POST /api/targets/preview/`: how many terminals a target reaches now (the target picker's count). */
export const targetPreviewQuery = (target: TargetInput, limit = 0) =>
  queryOptions({
    queryKey: [QUERY_ROOTS.terminals, 'target-preview', target, limit] as const,
    queryFn: ({ signal }) =>
      api.post('/api/targets/preview/', { target, limit_to: limit }, { schema: TargetPreviewSchema, signal }),
    staleTime: 10_000,
  });

/** `POST /api/rules/preview/`: what an unsaved rule would have fired on over the last 7 days (the editor's preview). */
export const rulePreviewQuery = (body: AlertRulePreviewRequest) =>
  queryOptions({
    queryKey: [QUERY_ROOTS.rules, 'preview', body] as const,
    queryFn: ({ signal }) =>
      api.post('/api/rules/preview/', body, { schema: AlertRulePreviewSchema, signal }),
    staleTime: 60_000,
  });
