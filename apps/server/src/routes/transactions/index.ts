import { TransactionActivitySchema } from '@forecourt/contract/transactions';
import type { FastifyInstance } from 'fastify';
import { dataRoute } from '../../lib/read-routes.ts';

export async function transactionRoutes(app: FastifyInstance) {
  dataRoute(app, {
    url: '/api/transactions/:siteId/',
    kind: 'site',
    param: 'siteId',
    tags: ['transactions'],
    summary: 'Transaction activity of a site: the last hour in 5-minute buckets, the last day in hours',
    description:
      'Oldest bucket first, with bucket start times. Each transaction counts in one series: zero amount (`transaction_0_*`), else under one litre (`transaction_lt1_*`), else normal (`transaction_in_*`).',
    response: TransactionActivitySchema,
    load: ({ scope }) => app.repos.fleetReads.transactionActivity(scope.id, new Date()),
  });
}
