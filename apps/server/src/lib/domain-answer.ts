import type { FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorKind } from '../services/domain-errors.ts';
import { forbidden, HttpError } from './errors.ts';

const STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

/** A service call's value, or its refusal (a DomainError) as the matching status. */
export async function answerOf<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    throw new HttpError(STATUS[err.kind], err.errors);
  }
}

/** The signed-in agent as the actor of a write; 403 for anyone else (company and site users). */
export function agentActor(request: FastifyRequest, message: string) {
  const p = request.principal!;
  if (p.agentId === null) throw forbidden(message);
  return { userId: p.userId, username: p.username, agentId: p.agentId };
}
