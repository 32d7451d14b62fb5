import { bigserial, boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { users } from './org.ts';

export const resetTokens = pgTable(
  'reset_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('reset_tokens_user_idx').on(t.userId)],
);

/** Logged-out tokens, by their jti, kept until they would have expired anyway. */
export const revokedTokens = pgTable('revoked_tokens', {
  jti: text('jti').primaryKey(),
  expiresAt: ts('expires_at').notNull(),
});

/**
 * Sign-in limits shared by every node (docs/deploying.md): failure counters per (account, address), per account
 * and per address in a window ending at `expires_at`, and remembered successful (account, address) pairs.
 * Expired rows are pruned.
 */
export const signInLimits = pgTable(
  'sign_in_limits',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sign_in_limits_expires_idx').on(t.expiresAt)],
);

/** Per-terminal device secrets, stored only hashed (sha-256 of a 256-bit random secret). */
export const deviceTokens = pgTable('device_tokens', {
  terminalId: integer('terminal_id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  createdBy: integer('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Small key/value store for server state that must survive restarts (seed marker, ...). */
export const meta = pgTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * API keys (docs/integrations.md "API keys"): a user's long-lived credentials for other systems, stored only as the
 * sha-256 of a 256-bit random token, with its first characters in clear (`prefix`) to tell keys apart. Deleting a
 * key deletes its row; the audit keeps what it was.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    readOnly: boolean('read_only').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** Written at most once a minute per key (services/api-keys.ts). */
    lastUsedAt: ts('last_used_at'),
    expiresAt: ts('expires_at'),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.id.desc())],
);
