import { API_KEY_READ_METHODS, API_KEY_TEXTS, isApiKeyToken } from '@forecourt/contract/api-keys';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../lib/errors.ts';
import type { ApiKeyGrant } from '../repositories/api-key-repository.ts';
import type { Principal } from '../repositories/principal-repository.ts';
import { type AccountService, createAccountService } from '../services/accounts.ts';
import { type ApiKeyService, createApiKeyService } from '../services/api-keys.ts';
import type { TokenClaims } from '../services/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The session token's claims; null for a request made with an API key. */
    claims: TokenClaims | null;
    /** The API key the request was made with; null for a session token. */
    apiKey: ApiKeyGrant | null;
  }
  interface FastifyInstance {
    accounts: AccountService;
    apiKeys: ApiKeyService;
    /**
     * preHandler: a valid, unrevoked token of an existing user, or a valid API key (acting as its user), else 401.
     * A read-only key is refused (403) on anything but a read by this plugin's onRequest hook, on every path.
     */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler after `authenticate` or `scope`: agents only, else 403 naming what is refused. */
    agentOnly: (what: string) => (request: FastifyRequest) => Promise<void>;
    /** preHandler after `authenticate`: refused (403) to a request made with an API key, naming what. */
    signedInOnly: (what: string) => (request: FastifyRequest) => Promise<void>;
  }
}

/**
 * The credential of a request: `JWT <t>`, `Bearer <t>` (a session token or an API key), `ApiKey <key>`, or the raw
 * token in the configured header. Tell which with `isApiKeyToken`.
 */
export function extractToken(request: FastifyRequest, headerName: string): string | null {
  const raw = request.headers[headerName.toLowerCase()] ?? request.headers.authorization;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  const m = /^(JWT|Bearer|ApiKey)\s+(.+)$/i.exec(value.trim());
  const scheme = m?.[1].toLowerCase();
  const token = (m ? m[2] : value).trim();
  if (isApiKeyToken(token)) return scheme === 'jwt' ? null : token;
  if (scheme === 'apikey') return null;
  return token && token.split('.').length === 3 ? token : null;
}

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('principal', null);
  app.decorateRequest('claims', null);
  app.decorateRequest('apiKey', null);

  const accounts = createAccountService({
    repos: app.repos,
    tokens: app.tokens,
    config: app.config,
    log: app.log.child({ service: 'accounts' }),
  });
  app.decorate('accounts', accounts);
  app.addHook('onClose', () => accounts.close());
  const apiKeys = createApiKeyService({ repos: app.repos, log: app.log.child({ service: 'api-keys' }) });
  app.decorate('apiKeys', apiKeys);

  // A read-only key may only read, on every path: refused before anything else looks at the request (its body
  // included), so every write answers 403 whatever the route checks first.
  app.addHook('onRequest', async (request) => {
    if (API_KEY_READ_METHODS.includes(request.method)) return;
    const token = extractToken(request, app.config.AUTH_HEADER);
    if (!token || !isApiKeyToken(token)) return;
    const result = await apiKeys.check(token);
    if (result.ok && result.key.readOnly) throw forbidden(API_KEY_TEXTS.readOnlyKey);
  });

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = extractToken(request, app.config.AUTH_HEADER);
    if (!token) throw unauthorized();
    if (isApiKeyToken(token)) {
      const result = await apiKeys.check(token);
      if (!result.ok) throw unauthorized(result.message);
      request.principal = result.principal;
      request.apiKey = result.key;
      return;
    }
    const result = await accounts.checkToken(token);
    if (!result.ok) throw unauthorized(result.message);
    request.claims = result.claims;
    request.principal = result.principal;
  });

  app.decorate('agentOnly', (what: string) => async (request: FastifyRequest) => {
    if (request.principal?.agentId == null) throw forbidden(`Only an agent may ${what}.`);
  });

  app.decorate('signedInOnly', (what: string) => async (request: FastifyRequest) => {
    if (request.apiKey) throw forbidden(API_KEY_TEXTS.keysCannot(what));
  });
});
