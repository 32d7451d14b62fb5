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
}

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
    sign(
      user: { id: number; username: string },
      rememberMe: boolean,
    ): { token: string; claims: TokenClaims } {
      const iat = Math.floor(Date.now() / 1000);
      const claims: TokenClaims = {
        sub: String(user.id),
        username: user.username,
        jti: randomUUID(),
        iat,
        exp: iat + (rememberMe ? REMEMBER_ME_TTL_S : SESSION_TTL_S),
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
