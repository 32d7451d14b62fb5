import type { FastifyInstance } from 'fastify';
import { demoAgentExists, localAddress, startSimulatorProcess } from './simulator-process.ts';
import { startTicketForwarder } from './zendesk.ts';

/** Starts the server's background work (connectivity watchdog, command expiry, ticket forwarding, simulator). Returns a stop function. */
export async function startBackground(
  app: FastifyInstance,
  ctx: { address: string },
): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  stops.push(startTicketForwarder(app));
  const stopSweeper = app.commands.start();
  stops.push(async () => stopSweeper());
  stops.push(app.heartbeats.start());
  stops.push(app.alertMail.start());
  if (app.config.SIMULATOR) {
    if (await demoAgentExists(app, 'agent')) {
      stops.push(startSimulatorProcess(app, { url: localAddress(ctx.address) }).stop);
    } else {
      app.log.info('simulator not started: the demo users do not exist (SEED=none)');
    }
  }
  return async () => {
    await Promise.all(
      stops.map((stop) => stop().catch((err) => app.log.error({ err }, 'background stop failed'))),
    );
  };
}
