import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const DEVICE_API = '/api/device/v1/';
/** The demo fleet simulator's user agent (apps/simulator/src/api.ts). */
const SIMULATOR = /^forecourt-simulator\b/;

/**
 * How loud one answered request is. Terminals report every few seconds, so the device API's successes are routine
 * (debug), and so are the demo simulator's; everything else that succeeds is info, a client error warn, a server
 * error error.
 */
export function requestLogLevel(
  url: string,
  statusCode: number,
  userAgent = '',
): 'debug' | 'info' | 'warn' | 'error' {
  if (statusCode >= 500) return 'error';
  if (statusCode >= 400) return 'warn';
  return url.startsWith(DEVICE_API) || SIMULATOR.test(userAgent) ? 'debug' : 'info';
}

/**
 * One log line per request, written when the answer is sent (Fastify's own two lines are turned off in app.ts).
 * The request id (`reqId`) is on every line a request writes, the error handler's lines included.
 */
export const requestLogPlugin = fp(async (app: FastifyInstance) => {
  // The simulator's own calls (it provisions 62 device tokens on a first start) say nothing below warn unless the
  // server logs at debug: the start banner stays on screen.
  app.addHook('onRequest', async (request) => {
    if (SIMULATOR.test(request.headers['user-agent'] ?? '') && !['debug', 'trace'].includes(app.log.level)) {
      request.log.level = 'warn';
    }
  });
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const statusCode = reply.statusCode;
    const level = requestLogLevel(request.url, statusCode, request.headers['user-agent']);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const url = request.url.length > 300 ? `${request.url.slice(0, 300)}…` : request.url;
    request.log[level](
      {
        method: request.method,
        url,
        route: request.routeOptions.url,
        statusCode,
        responseTime: ms,
        remoteAddress: request.ip,
      },
      `${request.method} ${url} ${statusCode} ${ms} ms`,
    );
  });
});
