import { TokenResponseSchema } from '@forecourt/contract/auth';
import { type CurrentUser, CurrentUserSchema } from '@forecourt/contract/users';
import { readStoredUserWith } from './session.ts';

/**
 * The contract's schemas the auth service checks answers and the stored user with. They need zod, which the
 * login route does not load: this module comes with the signed-in routes (require-session.tsx) or with a
 * sign-in's first answer (auth-service.ts).
 */
export { CurrentUserSchema, TokenResponseSchema };

function parseUser(value: unknown): CurrentUser | null {
  const parsed = CurrentUserSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** From now on the stored user is read through the contract's schema, the one read at start included. */
export function checkStoredUser() {
  readStoredUserWith(parseUser);
}
