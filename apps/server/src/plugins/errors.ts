import { MESSAGES } from '@forecourt/contract/validation';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  DATABASE_RETRY_AFTER_S,
  DATABASE_UNAVAILABLE,
  isDatabaseUnavailable,
} from '../lib/db-unavailable.ts';
import { errorBody, HttpError } from '../lib/errors.ts';

const selfNaming = new Set<string>(Object.values(MESSAGES));

function describeIssue(path: string, message: string): string {
  if (selfNaming.has(message) || message.toLowerCase().startsWith(path.toLowerCase())) return message;
  return path ? `${path}: ${message}` : message;
}

/** The one error handler: every failure answers the error body of docs/product.md#api-conventions, never a stack. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send(errorBody(error.errors, error.extra));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const errors = error.validation.map((v) => {
        const p = String(v.instancePath ?? '')
          .replace(/^\//, '')
          .replace(/\//g, '.');
        return describeIssue(p || where, v.message ?? 'is invalid');
      });
      // One message per problem: a value failing several checks of one rule is named once.
      const unique = [...new Set(errors)];
      return reply.status(400).send(errorBody(unique.length ? unique : [`${where} is invalid`]));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause?.issues }, 'response does not match its schema');
      return reply.status(500).send(errorBody(['Internal server error.']));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500 && isDatabaseUnavailable(error)) {
      // The database is down or unreachable: the client may retry; /api/health/ready says when it is back.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', DATABASE_RETRY_AFTER_S);
      return reply.status(503).send(errorBody([DATABASE_UNAVAILABLE]));
    }
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send(errorBody(['Internal server error.']));
    }
    let message = error.message;
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      message = error.message.startsWith('Body is not valid JSON')
        ? `${error.message.replace(/ but content-type is set to 'application\/json'$/, '')}.`
        : `Body is not valid JSON: ${error.message}`;
    } else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      message = 'Body is too large.';
    } else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      message = 'Unsupported Content-Type: send application/json.';
    }
    return reply.status(status).send(errorBody([message]));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody([`Not found: ${request.method} ${request.url.split('?')[0]}`]));
  });
});
