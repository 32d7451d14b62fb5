import type { FastifyInstance } from 'fastify';
import { registerOrgReads } from '../../lib/org-reads.ts';

/** Company dashboard reads (the logs, incl. /reboot/log and /shock/log/, are in routes/logs). */
export async function companyDataRoutes(app: FastifyInstance) {
  registerOrgReads(app, 'company');
}
