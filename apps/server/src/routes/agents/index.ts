import type { FastifyInstance } from 'fastify';
import { registerOrgReads } from '../../lib/org-reads.ts';

/** Agent dashboard reads (the logs are in routes/logs). */
export async function agentRoutes(app: FastifyInstance) {
  registerOrgReads(app, 'agent');
}
