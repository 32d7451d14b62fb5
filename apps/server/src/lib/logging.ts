import path from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';
import type { Env } from '../config/env.ts';

export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT when set; otherwise readable lines on a terminal and JSON everywhere else (docs/deploying.md). */
export function resolveLogFormat(
  config: Pick<Env, 'LOG_FORMAT'>,
  isTTY = Boolean(process.stdout.isTTY),
): LogFormat {
  return config.LOG_FORMAT ?? (isTTY ? 'pretty' : 'json');
}

/**
 * The server's logger: pino as Fastify ships it. `pretty` writes one line per event through pino-pretty in this
 * thread (synchronously, so nothing is lost on exit); `json` writes pino's JSON lines to stdout.
 */
export function loggerOptions(
  config: Pick<Env, 'LOG_LEVEL' | 'LOG_FORMAT'>,
  isTTY = Boolean(process.stdout.isTTY),
): NonNullable<FastifyServerOptions['logger']> {
  if (resolveLogFormat(config, isTTY) === 'json') return { level: config.LOG_LEVEL };
  return {
    level: config.LOG_LEVEL,
    stream: pretty({
      sync: true,
      colorize: isTTY,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      // Fields the message already says (request lines, the start banner) are left out of the readable line.
      ignore:
        'pid,hostname,method,url,route,statusCode,responseTime,remoteAddress,address,where,startupMs,demoUsers',
    }),
  };
}

/** Where the data is, for the start banner: the PGlite folder, or PostgreSQL's host and database (never a password). */
export function describeDatabase(config: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>): string {
  if (!config.DATABASE_URL) return `PGlite in ${path.resolve(config.DATA_DIR, 'pglite')}`;
  const u = new URL(config.DATABASE_URL);
  const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
  return `PostgreSQL ${user}${u.hostname}:${u.port || '5432'}/${decodeURIComponent(u.pathname.slice(1)) || 'postgres'}`;
}
