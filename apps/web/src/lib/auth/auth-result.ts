/** What every auth call answers (docs/product.md#login-flow). */
export interface AuthResult {
  success: boolean;
  /** The raw response body, or the error. */
  response: unknown;
  /** Where to go next ('' for nowhere). */
  redirect: string;
  errors: string[];
  messages: string[];
  /** The token issued, or ''. */
  token: string;
}

export function authResult(init: Partial<AuthResult> & Pick<AuthResult, 'success'>): AuthResult {
  return { response: null, redirect: '', errors: [], messages: [], token: '', ...init };
}
