import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../lib/errors.ts';
import type { DeviceTerminal } from '../repositories/device-repository.ts';
import { type CommandService, createCommandService } from '../services/commands.ts';
import {
  createDeviceTokenService,
  type DeviceTokenService,
  hashDeviceToken,
  readDeviceToken,
} from '../services/device-tokens.ts';
import { createDeviceWriteService, type DeviceWriteService } from '../services/device-writes.ts';
import { createHeartbeatService, type HeartbeatService } from '../services/heartbeats.ts';
import { createTelemetryWriter, type TelemetryWriter } from '../services/telemetry-writes.ts';
import { nodeSyncPlugin } from './node-sync.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The terminal behind `Authorization: Device <token>`, set by `app.deviceAuth`. */
    device: DeviceTerminal | null;
    /** The sha-256 of the device token the request came with, set by `app.deviceAuth`. */
    deviceTokenHash: string | null;
  }
  interface FastifyInstance {
    commands: CommandService;
    heartbeats: HeartbeatService;
    deviceTokens: DeviceTokenService;
    /** What terminals report through the device API (services/device-writes.ts). */
    deviceWrites: DeviceWriteService;
    /** Device telemetry, written in group commits (services/telemetry-writes.ts). */
    telemetryWrites: TelemetryWriter;
    /** onRequest hook of the device API: resolves the device token (unknown → 401) and records the heartbeat. */
    deviceAuth: (request: FastifyRequest) => Promise<void>;
  }
}

/**
 * Device-facing services: command dispatch, heartbeats/connectivity, device tokens; and, through the change feed,
 * what other nodes' writes mean for this node (plugins/node-sync.ts).
 */
export const devicesPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'commands',
      createCommandService({ repos: app.repos, log: app.log.child({ service: 'commands' }) }),
    );
    app.decorate(
      'heartbeats',
      createHeartbeatService({
        repo: app.repos.connectivity,
        log: app.log.child({ service: 'connectivity' }),
        timeoutS: app.config.CONNECTIVITY_TIMEOUT,
      }),
    );
    app.decorate('deviceTokens', createDeviceTokenService(app.repos));

    app.decorate('deviceWrites', createDeviceWriteService(app.repos, app.rules));
    // What acts on readings as they arrive goes in as `onStored`: called with each committed batch.
    app.decorate(
      'telemetryWrites',
      createTelemetryWriter({
        store: (writes) => app.deviceWrites.telemetry(writes),
        // Alert rules, evaluated on whichever node stored the readings (services/alert-rules.ts).
        onStored: (writes) => app.rules.telemetry(writes),
        log: app.log.child({ service: 'telemetry-writes' }),
      }),
    );

    app.decorateRequest('device', null);
    app.decorateRequest('deviceTokenHash', null);
    app.decorate('deviceAuth', async (request: FastifyRequest) => {
      const token = readDeviceToken(request.headers.authorization);
      if (!token) throw unauthorized('A device token is required: send Authorization: Device <token>.');
      const hash = hashDeviceToken(token);
      const terminal = await app.deviceTokens.resolveHash(hash);
      if (!terminal) throw unauthorized('Unknown device token.');
      request.device = terminal;
      request.deviceTokenHash = hash;
      await app.heartbeats.seen(terminal);
    });

    // Long-polls would hold shutdown for up to 30 s: answer them (empty) before the server stops listening.
    app.addHook('preClose', async () => {
      app.commands.releaseAll();
    });
    app.addHook('onClose', async () => {
      await app.telemetryWrites.drained();
      await app.heartbeats.flush().catch((err) => app.log.error({ err }, 'final heartbeat flush failed'));
    });

    if (app.hasDecorator('feed')) await app.register(nodeSyncPlugin);
  },
  { name: 'devices' },
);
