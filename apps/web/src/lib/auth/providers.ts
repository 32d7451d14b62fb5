import type {
  LoginForm,
  RegisterForm,
  RequestPassword,
  ResetPasswordForm,
} from '@forecourt/contract/auth-rules';
import type { AuthResult } from './auth-result.ts';
import type { TokenKind } from './token.ts';

export type ResetPasswordInput = ResetPasswordForm & { reset_password_token: string };

/** One way of talking to an auth backend. Every method resolves; failures come back as `success: false`. */
export interface AuthProvider {
  readonly name: string;
  /** The token class this provider's tokens are checked with. */
  readonly tokenKind: TokenKind;
  authenticate(data: LoginForm): Promise<AuthResult>;
  register(data: RegisterForm): Promise<AuthResult>;
  logout(): Promise<AuthResult>;
  requestPassword(data: RequestPassword): Promise<AuthResult>;
  resetPassword(data: ResetPasswordInput): Promise<AuthResult>;
}

export type AuthProviderFactory = () => AuthProvider;

const registry = new Map<string, AuthProviderFactory>();

export function registerAuthProvider(name: string, factory: AuthProviderFactory): void {
  registry.set(name, factory);
}

export function registeredAuthProviders(): string[] {
  return [...registry.keys()];
}

/** The provider registered under `name`; an unknown name is a configuration mistake and throws. */
export function getAuthProvider(name: string): AuthProvider {
  const factory = registry.get(name);
  if (!factory) throw new TypeError(`Auth provider '${name}' is not registered`);
  return factory();
}
