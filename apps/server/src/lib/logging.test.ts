import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLogLevel } from '../plugins/request-log.ts';
import { describeDatabase, loggerOptions, resolveLogFormat } from './logging.ts';

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

describe('logs', () => {
  it('are readable on a terminal and JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(resolveLogFormat({ LOG_FORMAT: undefined }, true)).toBe('pretty');
    expect(resolveLogFormat({ LOG_FORMAT: undefined }, false)).toBe('json');
    expect(resolveLogFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(resolveLogFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });

  it('write one readable line per event in the pretty format, keeping the request id', async () => {
    const out = sink();
    const app = Fastify({
      logger: loggerOptions({ LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' }, false, out.stream),
    });
    app.log
      .child({ reqId: 'req-7' })
      .info({ method: 'GET', url: '/api/x', statusCode: 200, responseTime: 1.5 }, 'GET /api/x 200 1.5 ms');
    app.log.error({ err: new Error('boom') }, 'request failed');
    await app.close();
    const [request, failure, ...stack] = out.lines;
    expect(request).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/x 200 1\.5 ms \{"reqId":"req-7"\}$/);
    expect(failure).toMatch(/ERROR: request failed/);
    // An error's stack follows its line, one frame per line.
    expect(stack.join('\n')).toContain('Error: boom');
    expect(out.lines.every((l) => !l.startsWith('{'))).toBe(true);
  });

  it('put routine device and simulator traffic at debug, client errors at warn, server errors at error', () => {
    expect(requestLogLevel('/api/device/v1/telemetry', 202)).toBe('debug');
    expect(requestLogLevel('/api/device/v1/commands', 200)).toBe('debug');
    expect(requestLogLevel('/api/device/v1/telemetry', 401)).toBe('warn');
    expect(requestLogLevel('/api/device/v1/telemetry', 500)).toBe('error');
    expect(requestLogLevel('/api/site/1/terminals/', 200, 'forecourt-simulator')).toBe('debug');
    expect(requestLogLevel('/api/site/1/terminals/', 200, 'Mozilla/5.0')).toBe('info');
    expect(requestLogLevel('/api/auth/login', 400)).toBe('warn');
    expect(requestLogLevel('/api/alerts/', 503)).toBe('error');
  });

  it('name the database without its password', () => {
    expect(
      describeDatabase({ DATABASE_URL: 'postgres://fc:s3cret@db.example:6543/forecourt', DATA_DIR: 'x' }),
    ).toBe('PostgreSQL fc@db.example:6543/forecourt');
    expect(describeDatabase({ DATABASE_URL: 'postgresql://db.example/fleet', DATA_DIR: 'x' })).toBe(
      'PostgreSQL db.example:5432/fleet',
    );
    expect(describeDatabase({ DATABASE_URL: undefined, DATA_DIR: '/var/lib/forecourt' })).toBe(
      'PGlite in /var/lib/forecourt/pglite',
    );
  });
});
