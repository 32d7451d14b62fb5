import { decodeJwt, type JwtPayload } from '@forecourt/contract/auth-rules';

/** A stored auth token. `isValid` decides whether the session counts as authenticated. */
export interface AuthToken {
  readonly value: string;
  isValid(now?: number): boolean;
  getPayload(): JwtPayload | null;
  /** Expiry, or null when the token carries none. */
  getExpiration(): Date | null;
}

/** A raw token: valid when non-empty. */
export class AuthSimpleToken implements AuthToken {
  constructor(readonly value: string) {}
  isValid(): boolean {
    return this.value.length > 0;
  }
  getPayload(): JwtPayload | null {
    return null;
  }
  getExpiration(): Date | null {
    return null;
  }
}

/**
 * A JWT: three dot-separated parts, the middle one a base64url JSON payload whose optional `exp`
 * (seconds) is the expiry. `getPayload` throws the contract's messages for a malformed token.
 */
export class AuthJwtToken implements AuthToken {
  constructor(readonly value: string) {}
  getPayload(): JwtPayload {
    return decodeJwt(this.value);
  }
  getExpiration(): Date | null {
    const { exp } = this.getPayload();
    return typeof exp === 'number' ? new Date(exp * 1000) : null;
  }
  isValid(now: number = Date.now()): boolean {
    if (!this.value) return false;
    try {
      const exp = this.getExpiration();
      return exp === null || exp.getTime() > now;
    } catch {
      return false;
    }
  }
}

export type TokenKind = 'jwt' | 'simple';

export function createToken(value: string | null | undefined, kind: TokenKind = 'jwt'): AuthToken {
  const raw = value ?? '';
  return kind === 'jwt' ? new AuthJwtToken(raw) : new AuthSimpleToken(raw);
}
