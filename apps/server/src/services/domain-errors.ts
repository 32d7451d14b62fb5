import type { AdminChild } from '@forecourt/contract/admin';
import { isUniqueViolation } from '../repositories/user-repository.ts';

/** What a rule refused: a bad value, a place that is not the caller's, a missing row, a write that conflicts. */
export type DomainErrorKind = 'invalid' | 'forbidden' | 'not_found' | 'conflict';

/**
 * A write (or read) a service's rule refused, with the texts that say why; routes answer it (invalid 400,
 * forbidden 403, not_found 404, conflict 409). A conflict with live children names them.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly errors: string[],
    readonly children?: AdminChild[],
  ) {
    super(errors.join('; '));
  }
}

export const invalid = (...errors: string[]) => new DomainError('invalid', errors);
export const conflicting = (message: string, children?: AdminChild[]) =>
  new DomainError('conflict', [message], children);
export const missing = (entity: string, id: number) =>
  new DomainError('not_found', [`No ${entity} with id ${id}.`]);
export const notYours = () =>
  new DomainError('forbidden', ['You do not have permission to access this resource.']);

/** A unique violation of one of these indexes is a conflict naming the field; any other error goes on. */
export function uniqueAs(messages: Record<string, string>) {
  return (err: unknown): never => {
    for (const [index, message] of Object.entries(messages)) {
      if (isUniqueViolation(err, index)) throw conflicting(message);
    }
    throw err;
  };
}
