import { timestamp } from 'drizzle-orm/pg-core';

/** A `timestamptz` column read as a Date; its SQL name stays a literal type (repositories/rows.ts keys rows by it). */
export const ts = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });
