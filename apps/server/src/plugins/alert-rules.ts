import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type AlertRules, createAlertRules } from '../services/alert-rules.ts';
import { createMaintenanceService } from '../services/maintenance-windows.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Alert rules at work (services/alert-rules.ts): evaluation as readings arrive, and the leader's sweep. What it
     * remembers of the rules is dropped by every 'fleet' change (plugins/node-sync.ts).
     */
    rules: AlertRules;
  }
}

export const alertRulesPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'rules',
      createAlertRules({
        repo: app.repos.rules,
        work: app.repos.work,
        maintenance: createMaintenanceService(app.repos),
        log: app.log.child({ service: 'alert-rules' }),
        ownsDatabase: app.repos.rules.soleWriter,
      }),
    );
  },
  { name: 'alert-rules' },
);
