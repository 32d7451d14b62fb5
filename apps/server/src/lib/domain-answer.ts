import type { FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorKind } from '../services/domain-errors.ts';
import { forbidden, HttpError } from './errors.ts';

const STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

/**
 * The answer of a service call: its value, or the refusal as its status (400, 403, 404, 409) with the texts that
 * say why (and the blocking children of a conflict). Any other error goes on to the error handler.
 */
export async function answer<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    throw new HttpError(STATUS[err.kind], err.errors, err.children ? { children: err.children } : {});
  }
}

/** The signed-in agent as the actor of a write; 403 for anyone else (company and site users). */
export function agentActor(request: FastifyRequest, message: string) {
  const p = request.principal!;
  if (p.agentId === null) throw forbidden(message);
  return { userId: p.userId, username: p.username, agentId: p.agentId };
}
