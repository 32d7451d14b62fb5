import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createDecoder, createSigner, createVerifier, TokenError } from 'fast-jwt';
import type { SharedSettingsRepository } from '../repositories/settings-repository.ts';

export const SESSION_TTL_S = 12 * 3600;
export const REMEMBER_ME_TTL_S = 30 * 24 * 3600;

export interface TokenClaims {
  sub: string;
  username: string;
  jti: string;
  iat: number;
  exp: number;
  /** Session id: every token a sign-in's refreshes issue shares it; logging out revokes it. */
  sid?: string;
  /** When the session began (ms since the epoch): tokens of sessions begun before a disable stay refused. */
  sat?: number;
  /** The session's absolute end (s since the epoch): no token of the session lives past it. */
  sexp?: number;
}

/** The session a token belongs to; a token from before sessions existed is a session of its own. */
export interface Session {
  id: string;
  startedAt: number;
  endsAt: number;
}

export function sessionOf(claims: TokenClaims): Session {
  return {
    id: claims.sid ?? claims.jti,
    startedAt: claims.sat ?? claims.iat * 1000,
    endsAt: claims.sexp ?? claims.exp,
  };
}

/** Whether the token's session is a remember-me one (30 days rather than 12 h). */
export const isRememberMe = (claims: TokenClaims): boolean => {
  const s = sessionOf(claims);
  return s.endsAt - Math.floor(s.startedAt / 1000) > SESSION_TTL_S;
};

/** Where the signing secret lives in the database when JWT_SECRET is unset (shared_settings.name). */
export const JWT_SECRET_SETTING = 'jwt_secret';

/**
 * The JWT secret: JWT_SECRET, else the one every node shares in the database (docs/deploying.md "Several nodes on one PostgreSQL"). The
 * first node to start generates it; nodes that start at the same moment agree on one (`settings.claim`). A data
 * folder from before the secret moved into the database keeps its `DATA_DIR/jwt-secret`: that secret is the one
 * stored (when the database has none yet), so tokens already issued stay valid.
 */
export async function resolveJwtSecret(
  configured: string | undefined,
  settings: Pick<SharedSettingsRepository, 'get' | 'claim'>,
  dataDir: string,
): Promise<string> {
  if (configured) return configured;
  const stored = await settings.get(JWT_SECRET_SETTING);
  if (stored) return stored;
  const file = path.resolve(dataDir, 'jwt-secret');
  const legacy = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  return settings.claim(JWT_SECRET_SETTING, legacy || randomBytes(48).toString('base64url'));
}

export type VerifyResult =
  | { ok: true; claims: TokenClaims }
  | { ok: false; expired: boolean; message: string };

export function createTokenService(secret: string) {
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], cache: 1000 });
  const decoder = createDecoder();
  return {
    /**
     * A token of `session`, or of a new session (12 h, or 30 days with remember-me) when none is given. A
     * session's tokens never outlive it: refreshing cannot extend it (docs/decisions/0004-accounts-and-passwords.md).
     */
    sign(
      user: { id: number; username: string },
      rememberMe: boolean,
      session?: Session,
    ): { token: string; claims: TokenClaims } {
      const now = Date.now();
      const iat = Math.floor(now / 1000);
      const ttl = rememberMe ? REMEMBER_ME_TTL_S : SESSION_TTL_S;
      const s = session ?? { id: randomUUID(), startedAt: now, endsAt: iat + ttl };
      const claims: TokenClaims = {
        sub: String(user.id),
        username: user.username,
        jti: randomUUID(),
        iat,
        exp: Math.min(iat + ttl, s.endsAt),
        sid: s.id,
        sat: s.startedAt,
        sexp: s.endsAt,
      };
      const signer = createSigner({ key: secret, algorithm: 'HS256' });
      return { token: signer(claims as unknown as Record<string, unknown>), claims };
    },
    verify(token: string): VerifyResult {
      try {
        const claims = verifier(token) as TokenClaims;
        if (!claims.sub || !claims.jti || !claims.exp)
          return { ok: false, expired: false, message: 'Invalid token.' };
        return { ok: true, claims };
      } catch (err) {
        if (err instanceof TokenError && err.code === TokenError.codes.expired) {
          return { ok: false, expired: true, message: 'Signature has expired.' };
        }
        return { ok: false, expired: false, message: 'Error decoding signature.' };
      }
    },
    decode(token: string): Partial<TokenClaims> | null {
      try {
        return decoder(token) as Partial<TokenClaims>;
      } catch {
        return null;
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
