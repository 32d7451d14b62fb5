import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { SOFTWARE_TEXTS, SoftwareListQuerySchema, SoftwarePackageSchema } from '@forecourt/contract/software';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { agentActor, answer } from '../../lib/domain-answer.ts';
import { badRequest, errorBody, HttpError, notFound } from '../../lib/errors.ts';
import { sendPage } from '../../lib/paging.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { parseId } from '../../plugins/scope.ts';
import { PackageTooLarge, parseRange } from '../../services/software.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const security = [{ jwt: [] }];
const tags = ['software'];
/** Room for the form's other fields and the multipart framing around the file. */
const FORM_OVERHEAD = 64 * 1024;

const idOf = (request: FastifyRequest) => {
  const id = parseId((request.params as { id?: unknown }).id);
  if (id === null) throw notFound();
  return id;
};

const tooLarge = (mb: number) => new HttpError(413, [SOFTWARE_TEXTS.tooLarge(mb)]);

/**
 * Software packages (docs/rollouts.md): `POST|GET /api/software/`, `GET|DELETE /api/software/{id}/` (agents only),
 * and the devices' download `GET /api/device/v1/software/{id}` (their token; Range requests resume).
 */
export async function softwareRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const maxMb = app.config.PACKAGE_MAX_MB;
  // One byte more than allowed reaches the service, which refuses it (413); never the whole file in memory.
  await app.register(multipart, {
    limits: { fileSize: app.software.maxBytes + 1, files: 2, fields: 10, fieldSize: 4096, parts: 14 },
    throwFileSizeLimit: false,
  });
  const agentOnly = async (request: FastifyRequest) => {
    await app.authenticate(request);
    agentActor(request, SOFTWARE_TEXTS.agentsOnly);
  };
  const actor = (request: FastifyRequest) => agentActor(request, SOFTWARE_TEXTS.agentsOnly);

  app.post(
    '/api/software/',
    {
      onRequest: agentOnly,
      schema: {
        tags,
        security,
        summary: 'Upload a package (agents): multipart/form-data with file, name, version and kind',
        description: `At most PACKAGE_MAX_MB MiB (${maxMb} here): larger is 413. The file is streamed into the database and its sha-256 computed on the way in.`,
        consumes: ['multipart/form-data'],
        response: { 201: SoftwarePackageSchema, 413: ErrorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const who = actor(request);
      if (!request.isMultipart()) throw badRequest(SOFTWARE_TEXTS.multipart);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > app.software.maxBytes + FORM_OVERHEAD)
        throw tooLarge(maxMb);
      const fields: Record<string, unknown> = {};
      let upload: { id: number; size: number; sha256: string } | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || upload) {
              part.file.resume();
              if (part.fieldname === 'file') throw badRequest(SOFTWARE_TEXTS.oneFile);
              continue;
            }
            upload = await app.software.receive(who, part.file);
            if (part.file.truncated) throw new PackageTooLarge(maxMb);
          } else if (typeof part.value === 'string') {
            fields[part.fieldname] = part.value;
          }
        }
      } catch (err) {
        if (upload) await app.software.discard(upload.id).catch(() => {});
        if (err instanceof PackageTooLarge || (err as { statusCode?: number }).statusCode === 413)
          throw tooLarge(maxMb);
        if (isMalformedForm(err)) throw badRequest(`${SOFTWARE_TEXTS.multipart} (${(err as Error).message})`);
        throw err;
      }
      if (!upload) {
        const problems = [SOFTWARE_TEXTS.file];
        throw badRequest(problems);
      }
      const pkg = await answer(app.software.complete(who, upload, fields));
      return reply.status(201).send(pkg);
    },
  );

  app.get(
    '/api/software/',
    {
      onRequest: agentOnly,
      schema: {
        tags,
        security,
        summary: 'Packages (agents), newest first',
        description:
          'Paged with `limit_to` and `before` (the id of the last row seen, also in `X-Next-Cursor`).',
        querystring: SoftwareListQuerySchema,
        response: { 200: z.array(SoftwarePackageSchema), ...errors },
      },
    },
    async (request, reply) => {
      const rows = await app.software.list(actor(request), {
        limit: request.query.limit_to,
        before: request.query.before,
      });
      return sendPage(request, reply, rows, request.query.limit_to);
    },
  );

  app.get(
    '/api/software/:id/',
    {
      onRequest: agentOnly,
      schema: {
        tags,
        security,
        summary: 'One package',
        params: IdPathSchema,
        response: { 200: SoftwarePackageSchema, ...errors },
      },
    },
    async (request) => answer(app.software.get(actor(request), idOf(request))),
  );

  app.delete(
    '/api/software/:id/',
    {
      onRequest: agentOnly,
      schema: {
        tags,
        security,
        summary: 'Delete a package (409 while a running or paused rollout uses it); answers it as it was',
        params: IdPathSchema,
        response: { 200: SoftwarePackageSchema, 409: ErrorBodySchema, ...errors },
      },
    },
    async (request) => answer(app.software.remove(actor(request), idOf(request))),
  );

  app.get(
    '/api/device/v1/software/:id',
    {
      onRequest: app.deviceAuth,
      compress: false,
      schema: {
        tags: ['device'],
        security: [{ device: [] }],
        summary: "Download a package of this terminal's fleet (Range requests: 206; past the end: 416)",
        params: IdPathSchema,
      },
    },
    async (request, reply) => {
      const id = parseId((request.params as { id?: unknown }).id);
      const pkg = id === null ? null : await app.software.forDevice(request.device!.agentId, id);
      if (!pkg) throw notFound(`No package ${(request.params as { id: string }).id} for this terminal.`);
      const range = parseRange(request.headers.range, pkg.size);
      reply.header('accept-ranges', 'bytes');
      reply.header('etag', `"${pkg.sha256}"`);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${pkg.size}`);
        return reply
          .status(416)
          .send(errorBody([`Range not satisfiable: the package has ${pkg.size} bytes.`]));
      }
      const span = range ?? { start: 0, end: pkg.size - 1 };
      reply.header('content-type', 'application/octet-stream');
      reply.header('content-length', String(Math.max(0, span.end - span.start + 1)));
      if (range) {
        reply.status(206);
        reply.header('content-range', `bytes ${span.start}-${span.end}/${pkg.size}`);
      }
      if (pkg.size === 0) return reply.send(Buffer.alloc(0));
      return reply.send(Readable.from(app.software.bytes(pkg, span)));
    },
  );
}

/**
 * Whether an error is the form parser's refusal of a body that is not well-formed multipart/form-data (busboy's
 * "Unexpected end of form", "Malformed part header", a missing boundary, or @fastify/multipart's own 4xx errors),
 * as opposed to a failure of the server (the database) while the file was stored.
 */
function isMalformedForm(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const status = (err as { statusCode?: number }).statusCode;
  if ((err as { code?: string }).code?.startsWith('FST_') && status !== undefined && status < 500)
    return true;
  return /unexpected end of (form|file)|malformed part header|boundary not found|multipart/i.test(
    err.message,
  );
}
