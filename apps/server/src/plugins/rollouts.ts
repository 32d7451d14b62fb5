import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createRolloutService, type RolloutService } from '../services/rollouts.ts';
import { createSoftwareService, type SoftwareService } from '../services/software.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Software packages: uploads streamed into PostgreSQL, downloads by range (services/software.ts). */
    software: SoftwareService;
    /** Software rollouts: the rules, and the leader's tick that moves them on (services/rollouts.ts). */
    rollouts: RolloutService;
  }
}

/**
 * Software packages and rollouts. The tick runs on the leader (services/background.ts); this node's feed tells it
 * when something a rollout waits for happened on any node: an install command changed ('command'), a terminal
 * reported a new version ('fleet' naming the terminal) or its connectivity changed.
 */
export const rolloutsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('software', createSoftwareService(app.repos, { maxMb: app.config.PACKAGE_MAX_MB }));
    app.decorate(
      'rollouts',
      createRolloutService({
        repos: app.repos,
        log: app.log.child({ service: 'rollouts' }),
        sweepCommands: (now) => app.commands.sweep(now),
      }),
    );
    const unsubscribe = app.feed.subscribe((changes) => {
      for (const c of changes) {
        if (
          c.kind === 'command' ||
          c.kind === 'connectivity' ||
          (c.kind === 'fleet' && c.terminalId != null)
        ) {
          app.rollouts.poke();
          return;
        }
      }
    });
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'rollouts', dependencies: ['devices'] },
);
