import { z } from 'zod';
import { ListPageSchema } from './common.ts';

/**
 * API keys (docs/integrations.md "API keys"): long-lived credentials a user makes for another system. A key acts
 * as its user, with the user's scope, on every API path; a read-only key only reads. The token is shown once, in
 * the creation answer; the server keeps its sha-256 and the first characters (`prefix`) to tell keys apart.
 */

/** The `Authorization` scheme of a key (`Bearer` works too). */
export const API_KEY_SCHEME = 'ApiKey';
/** What every key starts with, so a key pasted anywhere is recognisable (and never mistaken for a JWT). */
export const API_KEY_START = 'fck_';
/** A key: `fck_` then 43 base64url characters (256 random bits). */
export const API_KEY_PATTERN = /^fck_[A-Za-z0-9_-]{43}$/;
/** How many characters of a key are kept in clear and listed as its `prefix`. */
export const API_KEY_PREFIX_LENGTH = 12;
export const API_KEY_NAME_MAX = 100;
/** Methods a read-only key may use. */
export const API_KEY_READ_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

export const isApiKeyToken = (token: string): boolean => API_KEY_PATTERN.test(token);

export const API_KEY_TEXTS = {
  name: `name is required: 1 to ${API_KEY_NAME_MAX} characters`,
  nameLong: `name must be at most ${API_KEY_NAME_MAX} characters`,
  readOnly: 'read_only must be true or false',
  expiresAt: 'expires_at must be null or an ISO 8601 date-time with offset, e.g. 2027-01-01T00:00:00Z',
  expiresPast: 'expires_at must be in the future',
  readOnlyKey: 'This API key is read-only: it may only read (GET).',
  keysCannot: (what: string) => `An API key cannot ${what}: sign in with your password to do it.`,
  unknown: 'Invalid API key.',
  expired: 'This API key has expired.',
  beforeDisable: 'This API key was made before the account was disabled.',
} as const;

const expiresAt = z
  .string({ error: API_KEY_TEXTS.expiresAt })
  .pipe(z.iso.datetime({ offset: true, error: API_KEY_TEXTS.expiresAt }))
  .pipe(
    z
      .string()
      .refine((v) => new Date(v).getUTCFullYear() < 2100, API_KEY_TEXTS.expiresAt)
      .refine((v) => Date.parse(v) > Date.now(), API_KEY_TEXTS.expiresPast),
  );

export const ApiKeyCreateSchema = z
  .object({
    name: z
      .string({ error: API_KEY_TEXTS.name })
      .trim()
      .min(1, API_KEY_TEXTS.name)
      .max(API_KEY_NAME_MAX, API_KEY_TEXTS.nameLong)
      .describe('What the key is for, e.g. "Stock system"'),
    read_only: z
      .boolean({ error: API_KEY_TEXTS.readOnly })
      .default(false)
      .describe('true: the key may only read (any other method is answered 403)'),
    expires_at: expiresAt
      .nullable()
      .default(null)
      .describe('When the key stops working (ISO 8601, in the future); null: never'),
  })
  .strict();
export type ApiKeyCreate = z.output<typeof ApiKeyCreateSchema>;
export type ApiKeyCreateInput = z.input<typeof ApiKeyCreateSchema>;

export const ApiKeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().describe(`The key's first ${API_KEY_PREFIX_LENGTH} characters, to tell keys apart`),
    read_only: z.boolean(),
    created_at: z.string().describe('ISO 8601 time in UTC'),
    last_used_at: z
      .string()
      .nullable()
      .describe('Last time the key was used (to the minute); null: never used'),
    expires_at: z.string().nullable().describe('When it stops working; null: never'),
  })
  .describe('An API key of the signed-in user (its token is never answered again)');
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyCreatedSchema = ApiKeySchema.extend({
  token: z
    .string()
    .describe(
      `The key, shown this once: send it as \`Authorization: ${API_KEY_SCHEME} <token>\` (or \`Bearer <token>\`)`,
    ),
}).describe('The new key with its token, shown once');
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

export const ApiKeyListQuerySchema = ListPageSchema;
export type ApiKeyListQuery = z.output<typeof ApiKeyListQuerySchema>;
