import { bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

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
