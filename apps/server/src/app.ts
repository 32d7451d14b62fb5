import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Env } from './config/env.ts';
import type { Database } from './db/client.ts';
import { cspDirectives } from './lib/csp.ts';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './lib/db-unavailable.ts';
import { errorBody } from './lib/errors.ts';
import { alertMailPlugin } from './plugins/alert-mail.ts';
import { alertRulesPlugin } from './plugins/alert-rules.ts';
import { authPlugin } from './plugins/auth.ts';
import { devicesPlugin } from './plugins/devices.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { liveCursorPlugin } from './plugins/live-cursor.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { noNulPlugin } from './plugins/no-nul.ts';
import { notificationsPlugin } from './plugins/notifications.ts';
import { reportsPlugin } from './plugins/reports.ts';
import { requestLogPlugin } from './plugins/request-log.ts';
import { rolloutsPlugin } from './plugins/rollouts.ts';
import { scopePlugin } from './plugins/scope.ts';
import { snapshotCachePlugin } from './plugins/snapshot-cache.ts';
import { createRepositories, type Repositories } from './repositories/index.ts';
import { createSignInLimitRepository } from './repositories/sign-in-limit-repository.ts';
import { routes } from './routes/index.ts';
import { type ChangeFeed, createChangeFeed } from './services/change-feed.ts';
import { createSignInLimits, type SignInLimitOptions, type SignInLimits } from './services/sign-in-limits.ts';
import { createTargetService, type TargetService } from './services/targets.ts';
import { createTokenService, type TokenService } from './services/tokens.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Env;
    database: Database;
    repos: Repositories;
    tokens: TokenService;
    signInLimits: SignInLimits;
    /** The change feed of every node's writes (services/change-feed.ts): started when the app is ready. */
    feed: ChangeFeed;
    /** Targets: read, authorise and resolve `{scope, tags}` (services/targets.ts, docs/targets.md). */
    targets: TargetService;
  }
}

export interface BuildOptions {
  config: Env;
  database: Database;
  jwtSecret: string;
  /** Serve the built web app from this folder (default apps/web/dist when it exists). */
  webRoot?: string | null;
  logger?: FastifyServerOptions['logger'];
  /** Thresholds and delays of sign-in limiting (tests shorten the delays). */
  signInLimits?: SignInLimitOptions;
}

export const defaultWebRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** A page path of the web app: not the API (`/api/...`, `/api-token-auth/`) and not a file (no dot in the last segment). */
export function isSpaPath(pathname: string): boolean {
  if (pathname === '/' || pathname.startsWith('/api') || pathname.includes('/.')) return false;
  const last = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  return !last.includes('.');
}

/** Answers that depend on the caller: the API (/api/...) and the sign-in paths of reading B. */
export function isPersonalPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return /^\/(api\/|api-token-[a-z]+\/?$|auth\/)/.test(pathname);
}

/** Errors the router raises before any route runs (too-long or malformed path parameter) answer the usual error body. */
function routerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const where = request.url.split('?')[0].slice(0, 200);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(404).send(errorBody([`Not found: ${request.method} ${where}`]));
  }
  return reply.status(400).send(errorBody([`The URL is not valid: ${where}`]));
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    // One line per request instead of two, quieter for the device API's routine traffic (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1_048_576,
    // X-Forwarded-For counts only from the proxies named in TRUST_PROXY (docs/deploying.md).
    trustProxy: opts.config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
    ajv: { customOptions: { coerceTypes: false } },
    frameworkErrors: routerError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', opts.config);
  app.decorate('database', opts.database);
  app.decorate('tokens', createTokenService(opts.jwtSecret));
  app.decorate('repos', createRepositories(opts.database, opts.config));
  app.decorate('targets', createTargetService(app.repos));
  app.decorate(
    'signInLimits',
    createSignInLimits(createSignInLimitRepository(opts.database), opts.signInLimits),
  );
  app.decorate(
    'feed',
    createChangeFeed({
      repo: app.repos.changes,
      listen: (channel, onNotify) => opts.database.listen(channel, onNotify),
      log: app.log.child({ service: 'change-feed' }),
    }),
  );
  app.addHook('onReady', async () => {
    // Not awaited past the first read: a database that is down now must not keep the node from starting.
    void app.feed.start().catch((err) => app.log.error({ err }, 'change feed did not start'));
  });
  app.addHook('onClose', async () => app.feed.stop());
  // Expired sign-in counters go every 10 minutes (any node may do it; the delete is idempotent).
  const pruneSignInLimits = setInterval(() => void app.signInLimits.prune().catch(() => {}), 600_000);
  pruneSignInLimits.unref();
  app.addHook('onClose', async () => clearInterval(pruneSignInLimits));

  await app.register(errorsPlugin);
  await app.register(requestLogPlugin);
  await app.register(metricsPlugin);
  await app.register(noNulPlugin);
  // Personal answers are never stored by a browser or a proxy (docs/deploying.md): everything under /api/ and
  // the sign-in paths of reading B, unless the route declares itself public (config, avatars, API docs).
  app.addHook('onSend', async (request, reply, payload) => {
    if (isPersonalPath(request.url) && !String(reply.getHeader('cache-control') ?? '').startsWith('public')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
  // Before compression: it stores the JSON text of each first answer to an Idempotency-Key.
  await app.register(idempotencyPlugin);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: cspDirectives([opts.config.TILE_URL_ROAD, opts.config.TILE_URL_SATELLITE]),
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  // Responses of 1 KB or more are compressed when the client accepts it (static files, logs, CSV, the
  // OpenAPI document); polled snapshots bring their own shared gzip (see sendSnapshot), so N operators
  // cost one compression. Request bodies sent with Content-Encoding gzip/deflate/br are inflated.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  // Per-route limits only (config.rateLimit or app.createRateLimit); nothing is limited by default.
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Forecourt API',
        description: 'Console API and device API of Forecourt.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          jwt: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              '`JWT <token>` or `Bearer <token>` (a session), or `ApiKey <key>` (also `Bearer <key>`)',
          },
          device: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Device <token>`' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(authPlugin);
  await app.register(scopePlugin);
  await app.register(snapshotCachePlugin, { ttlMs: opts.config.POLL_CACHE_MS });
  await app.register(liveCursorPlugin);
  await app.register(alertRulesPlugin);
  await app.register(devicesPlugin);
  await app.register(alertMailPlugin);
  await app.register(notificationsPlugin);
  await app.register(reportsPlugin);
  await app.register(rolloutsPlugin);

  // Liveness: the process answers (docs/deploying.md). Never asks the database.
  app.get('/api/health', { schema: { hide: true } }, async () => ({
    status: 'ok',
    database: opts.database.kind,
  }));
  // Readiness: the database answers `select 1` within 2 s; else 503, so a load balancer takes the node out.
  app.get('/api/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseUnavailableError('database check timed out')), 2_000);
    });
    try {
      await Promise.race([opts.database.query('select 1'), timeout]);
    } catch (err) {
      throw isDatabaseUnavailable(err)
        ? err
        : new DatabaseUnavailableError('database check failed', { cause: err });
    } finally {
      clearTimeout(timer);
    }
    reply.header('cache-control', 'no-store');
    return { status: 'ready', database: opts.database.kind };
  });

  await app.register(routes);

  const webRoot = opts.webRoot === undefined ? defaultWebRoot : opts.webRoot;
  if (webRoot && existsSync(webRoot)) {
    // Assets the web build compressed at its best quality (`file.br`, `file.gz`) go out as they are.
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
    });
    // Plain paths typed into the address bar (`/site/3/pump/status/log`) get the SPA, which turns them into
    // its hash route. Only browsers asking for a page; the API, files and anything else keep their 404.
    app.get('/*', { schema: { hide: true } }, (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '';
      if (isSpaPath(pathname) && /\btext\/html\b/i.test(request.headers.accept ?? '')) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply.callNotFound();
    });
  }
  return app;
}
