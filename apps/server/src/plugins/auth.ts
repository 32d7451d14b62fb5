import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../lib/errors.ts';
import type { Principal } from '../repositories/principal-repository.ts';
import { type AccountService, createAccountService } from '../services/accounts.ts';
import type { TokenClaims } from '../services/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    claims: TokenClaims | null;
  }
  interface FastifyInstance {
    accounts: AccountService;
    /** preHandler: a valid, unrevoked token of an existing user, else 401. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler after `authenticate` or `scope`: agents only, else 403 naming what is refused. */
    agentOnly: (what: string) => (request: FastifyRequest) => Promise<void>;
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

  const accounts = createAccountService({
    repos: app.repos,
    tokens: app.tokens,
    config: app.config,
    log: app.log.child({ service: 'accounts' }),
  });
  app.decorate('accounts', accounts);
  app.addHook('onClose', () => accounts.close());

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = extractToken(request, app.config.AUTH_HEADER);
    if (!token) throw unauthorized();
    const result = await accounts.checkToken(token);
    if (!result.ok) throw unauthorized(result.message);
    request.claims = result.claims;
    request.principal = result.principal;
  });

  app.decorate('agentOnly', (what: string) => async (request: FastifyRequest) => {
    if (request.principal?.agentId == null) throw forbidden(`Only an agent may ${what}.`);
  });
});
