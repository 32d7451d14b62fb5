import type { FastifyRequest } from 'fastify';
import type { Requester } from '../repositories/command-repository.ts';

/** Who asked for a command, as its history and the logs name them. */
export const requesterOf = (request: FastifyRequest): Requester => ({
  userId: request.principal!.userId,
  name: request.principal!.name || request.principal!.username,
});
