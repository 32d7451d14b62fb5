import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../lib/errors.ts';
import type { Principal } from '../repositories/principal-repository.ts';
import type { TokenClaims } from '../services/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    claims: TokenClaims | null;
  }
  interface FastifyInstance {
    /** preHandler: a valid, unrevoked token of an existing user, else 401. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}

/** `JWT <t>`, `Bearer <t>`, or the raw token in the configured header. */
export function extractToken(request: FastifyRequest, headerName: string): string | null {
  const raw = request.headers[headerName.toLowerCase()] ?? request.headers.authorization;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  const m = /^(?:JWT|Bearer)\s+(.+)$/i.exec(value.trim());
  const token = (m ? m[1] : value).trim();
  return token && token.split('.').length === 3 ? token : null;
}

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('principal', null);
  app.decorateRequest('claims', null);

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = extractToken(request, app.config.AUTH_HEADER);
    if (!token) throw unauthorized();
    const result = app.tokens.verify(token);
    if (!result.ok) throw unauthorized(result.expired ? 'Signature has expired.' : result.message);
    if (await app.repos.revoked.isRevoked(result.claims.jti)) throw unauthorized('Token has been revoked.');
    const principal = await app.repos.principals.load(Number(result.claims.sub));
    if (!principal) throw unauthorized('User not found.');
    if (result.claims.iat * 1000 < principal.passwordChangedAt.getTime() - 1000) {
      throw unauthorized('Token was issued before the last password change.');
    }
    request.claims = result.claims;
    request.principal = principal;
  });
});
