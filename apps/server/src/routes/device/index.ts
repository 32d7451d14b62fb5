import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  AcceptedSchema,
  batchOf,
  CommandAckResponseSchema,
  CommandAckSchema,
  CommandsQuerySchema,
  DeviceCommandSchema,
  DeviceEventSchema,
  DeviceInfoSchema,
  DevicePumpStatusSchema,
  DeviceShockSchema,
  DeviceTransactionSchema,
  MAX_BATCH,
  TelemetryPointSchema,
} from '@forecourt/contract/device';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer } from '../../lib/domain-answer.ts';
import { notFound, unauthorized } from '../../lib/errors.ts';
import { parseId } from '../../plugins/scope.ts';
import type { DeviceTerminal } from '../../repositories/device-repository.ts';
import { parseBatch } from './parse-batch.ts';

const PREFIX = '/api/device/v1';
/**
 * What a device write answers with instead of helmet's page headers: `{accepted}` is never a page, so only what
 * keeps a browser from treating it as one (no sniffing, no active content, no framing). Static: nothing is computed
 * per request (docs/decisions/0023-device-write-batching.md).
 */
const WRITE_ANSWER_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
} as const;
/** A full batch of 10,000 items is a few MB of JSON. */
const WRITE_BODY_LIMIT = 8 * 1024 * 1024;
const RETIRED_TOKEN = 'This device token is no longer valid: it was rotated.';
const deviceErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema };
/** Batches are checked item by item in the handler (parseBatch) to name the bad index; the schema documents them. */
const passThrough = () => (data: unknown) => ({ value: data });

/** What an install command tells the device (services/rollouts.ts): the package to fetch and check. */
const installFields = (p: Record<string, unknown> | null) => ({
  software_id: Number(p?.software_id),
  version: String(p?.version ?? ''),
  sha256: String(p?.sha256 ?? ''),
  size: Number(p?.size ?? 0),
  url: String(p?.url ?? ''),
});

/** The device API: what terminals (and the simulator) speak, authenticated with `Authorization: Device <token>`. */
export async function deviceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const security = [{ device: [] }];
  const tags = ['device'];
  const writes = app.deviceWrites;

  function write<T>(
    path: string,
    item: z.ZodType<T>,
    summary: string,
    store: (t: DeviceTerminal, items: T[], now: Date, batch: boolean) => Promise<number>,
  ) {
    app.post(
      `${PREFIX}/${path}`,
      {
        onRequest: [
          (_request, reply, done) => {
            reply.headers(WRITE_ANSWER_HEADERS);
            done();
          },
          app.deviceAuth,
        ],
        // The answer is a few bytes: no compression pass (a gzipped request body is still inflated), and helmet's
        // page headers are left to pages (WRITE_ANSWER_HEADERS above).
        compress: false,
        helmet: false,
        bodyLimit: WRITE_BODY_LIMIT,
        validatorCompiler: passThrough,
        schema: {
          tags,
          security,
          summary,
          description:
            `One object or an array of up to ${MAX_BATCH}. Answers 202 once every item is stored (one transaction); ` +
            'a bad item answers 400 naming its index and field, e.g. `[3].battery_life: battery_life must be 0 to 100`, ' +
            'and nothing is stored. Any device call is a heartbeat.',
          body: batchOf(item as z.ZodType),
          response: { 202: AcceptedSchema, ...deviceErrors },
        },
      },
      async (request, reply) => {
        const items = parseBatch(item, request.body, MAX_BATCH);
        const accepted = await answer(store(request.device!, items, new Date(), Array.isArray(request.body)));
        app.metrics.deviceWrites(path, accepted);
        return reply.status(202).send({ accepted });
      },
    );
  }

  write(
    'telemetry',
    TelemetryPointSchema,
    'Telemetry: battery, flash drive, temperatures, humidity, position',
    (t, items, now) => app.telemetryWrites.write(t, items, now),
  );
  write(
    'events',
    DeviceEventSchema,
    "Events: become alerts (hardware issues are types 1, 2, 12, 13, 14, 15; 100 is reserved for alert rules). `{event_type, clear: true}` clears this terminal's active alerts of that type instead",
    (t, items, now) => writes.events(t, items, now),
  );
  write('shocks', DeviceShockSchema, 'Shock readings', (t, items, now) => writes.shocks(t, items, now));
  write(
    'transactions',
    DeviceTransactionSchema,
    'Fuel transactions (volume in litres and amount)',
    (t, items, now) => writes.transactions(t, items, now),
  );
  write(
    'pumps/status',
    DevicePumpStatusSchema,
    "Pump status reports: each sets the pump's last_synapse_status (code 4000 = normal)",
    (t, items, now, batch) => writes.pumpStatuses(t, items, now, batch),
  );

  app.get(
    `${PREFIX}/me`,
    {
      onRequest: app.deviceAuth,
      schema: {
        tags,
        security,
        summary: 'This terminal and the pumps whose commands it carries',
        response: { 200: DeviceInfoSchema, 401: ErrorBodySchema },
      },
    },
    async (request) => {
      const t = request.device!;
      const pumps = await app.repos.pumps.byTerminal(t.id);
      return {
        terminal: { id: t.id, terminal_id: t.terminalNo, site_id: t.siteId, site: t.siteTitle },
        pumps: pumps.map((p) => ({
          pump_no: p.pumpNo,
          status: p.status,
          last_synapse_status: p.lastSynapseStatus,
        })),
        connectivity_timeout: app.config.CONNECTIVITY_TIMEOUT,
      };
    },
  );

  app.get(
    `${PREFIX}/commands`,
    {
      onRequest: app.deviceAuth,
      schema: {
        tags,
        security,
        summary: 'Fetch queued commands (long-poll with wait=N, N ≤ 30 s); they are marked sent',
        description:
          'Answers at once when commands are queued; else waits up to `wait` seconds and answers as soon as one is ' +
          'queued for this terminal (or [] when none came). A token rotated meanwhile ends the wait with 401 and is ' +
          'never handed a command.',
        querystring: CommandsQuerySchema,
        response: { 200: z.array(DeviceCommandSchema), ...deviceErrors },
      },
    },
    async (request, reply) => {
      const abort = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) abort.abort();
      };
      reply.raw.once('close', onClose);
      try {
        const rows = await app.commands.fetch(
          request.device!.id,
          request.deviceTokenHash!,
          request.query.wait,
          abort.signal,
        );
        if (rows === null) throw unauthorized(RETIRED_TOKEN);
        return rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          ...(r.pumpNo !== null ? { pump_no: r.pumpNo } : {}),
          ...(r.rebootType !== null ? { reboot_type: r.rebootType } : {}),
          ...(r.kind === 'install' ? installFields(r.payload) : {}),
          created_at: r.createdAt.toISOString(),
        }));
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );

  app.post(
    `${PREFIX}/commands/:id/ack`,
    {
      onRequest: app.deviceAuth,
      schema: {
        tags,
        security,
        summary: 'Acknowledge a command: ok (done) or failed',
        description:
          "Moves a sent command to confirmed or failed; a confirmed pump command sets the pump's last_synapse_status. " +
          'A repeated ack is answered the same and changes nothing. Another terminal’s command is 404.',
        params: z.object({ id: z.string().describe('Command id') }),
        body: CommandAckSchema,
        response: { 200: CommandAckResponseSchema, 404: ErrorBodySchema, ...deviceErrors },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const r =
        id === null
          ? null
          : await app.commands.acknowledge(
              request.device!.id,
              id,
              request.body.result,
              request.body.detail ?? null,
            );
      if (!r) throw notFound(`No command ${request.params.id} for this terminal.`);
      return r;
    },
  );
}
