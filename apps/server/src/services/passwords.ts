import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id`; the enum is a `const enum`, which isolated modules cannot read at runtime. */
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id baseline (19 MiB, 2 passes): about 20 ms per hash on this hardware. */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A slow, salted argon2id hash in PHC string form. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | null = null;

/** Prepares the throwaway hash up front, so even the first unknown-user login costs one verify only. */
export function warmUpPasswords(): void {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
}

/**
 * Checks a password against a stored hash. Without a stored hash (unknown user) it still verifies
 * against a throwaway hash, so an unknown username costs the same time as a wrong password.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  warmUpPasswords();
  const target = stored ?? (await dummy!);
  try {
    const ok = await verify(target, password);
    return ok && Boolean(stored);
  } catch {
    return false;
  }
}
