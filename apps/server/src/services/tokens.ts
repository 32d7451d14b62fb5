import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDecoder, createSigner, createVerifier, TokenError } from 'fast-jwt';

export const SESSION_TTL_S = 12 * 3600;
export const REMEMBER_ME_TTL_S = 30 * 24 * 3600;

export interface TokenClaims {
  sub: string;
  username: string;
  jti: string;
  iat: number;
  exp: number;
}

/** The JWT secret: JWT_SECRET, or one generated once and kept in DATA_DIR. */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.resolve(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
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
