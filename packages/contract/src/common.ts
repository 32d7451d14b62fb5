import { z } from 'zod';

/** Numeric id in a path. A non-numeric id is answered 404 by the server, not 400. */
export const IdParamSchema = z.object({ id: z.coerce.number().int().positive() });
export type IdParam = z.infer<typeof IdParamSchema>;

export const IsoDateTimeSchema = z.string().describe('ISO 8601 timestamp in UTC');

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

const booleanish = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const LimitSchema = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_LIMIT)
  .default(DEFAULT_LIMIT)
  .describe(`How many rows at most (default ${DEFAULT_LIMIT}, max ${MAX_LIMIT})`);

export const BooleanQuerySchema = booleanish;

/** An ISO 8601 time with offset, between the years 1900 and 9999. */
const LogTimeSchema = (name: string) =>
  z.iso
    .datetime({ offset: true, error: `${name} must be an ISO 8601 time, e.g. 2024-05-01T00:00:00Z` })
    .refine((v) => {
      const year = new Date(v).getUTCFullYear();
      return year >= 1900 && year <= 9999;
    }, `${name} must be between the years 1900 and 9999`);

/** Paging for log screens: newest first, `before` is the cursor returned as the last row's cursor. */
export const LogQuerySchema = z.object({
  limit_to: LimitSchema,
  before: z
    .string()
    .regex(/^\d{1,18}$/, 'before must be a cursor returned by this log (the cursor of the last row seen)')
    .optional()
    .describe('Cursor: only rows older than this one (the `cursor` of the last row seen)'),
  from: LogTimeSchema('from').optional().describe('Only rows at or after this time (ISO 8601)'),
  to: LogTimeSchema('to').optional().describe('Only rows before this time (ISO 8601)'),
  q: z.string().max(200).optional().describe('Case-insensitive substring search'),
  format: z.enum(['json', 'csv']).optional().describe('csv answers text/csv (also via Accept: text/csv)'),
});
export type LogQuery = z.infer<typeof LogQuerySchema>;

export const ListQuerySchema = z.object({ limit_to: LimitSchema });

const LIST_LIMIT_TEXT = `limit_to must be a whole number from 1 to ${MAX_LIMIT}`;

/**
 * Paging of a list of stored objects (rules, windows, keys, schedules, admin lists): newest first, `limit_to`
 * rows per page, `before` = the id of the last row seen. A list's query schema spreads its `shape`. Built by a call,
 * so the console's bundle leaves it out where it is not used (apps/web/vite/pure-schemas-plugin.ts).
 */
export const ListPageSchema = z.object({
  limit_to: z.coerce
    .number({ error: LIST_LIMIT_TEXT })
    .int(LIST_LIMIT_TEXT)
    .min(1, LIST_LIMIT_TEXT)
    .max(MAX_LIMIT, LIST_LIMIT_TEXT)
    .default(DEFAULT_LIMIT)
    .describe(`How many rows at most (default ${DEFAULT_LIMIT}, max ${MAX_LIMIT})`),
  before: z
    .string()
    .regex(/^\d{1,18}$/, 'before must be a cursor returned by this list (the id of the last row seen)')
    .optional()
    .describe('Cursor: only rows older than this one (the id of the last row seen)'),
});

export const ErrorBodySchema = z.object({
  data: z.object({ errors: z.array(z.string()) }),
  error: z.boolean().optional(),
  error_text: z.string().optional(),
  non_field_errors: z.array(z.string()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ActionResultSchema = z.object({ error: z.boolean(), error_text: z.string() });
export type ActionResult = z.infer<typeof ActionResultSchema>;

export const CompanyRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type CompanyRef = z.infer<typeof CompanyRefSchema>;
export const SiteRefSchema = z.object({ id: z.number().int(), title: z.string(), number: z.string() });
export type SiteRef = z.infer<typeof SiteRefSchema>;
export const TerminalRefSchema = z.object({ id: z.number().int(), terminal_id: z.string() });
export type TerminalRef = z.infer<typeof TerminalRefSchema>;
