import { ErrorBodySchema } from '@forecourt/contract/common';
import { z } from 'zod';

/** `:id` of a scoped path. Numeric in practice; a non-numeric id is answered 404 by `app.scope`, not 400. */
export const IdPathSchema = z.object({ id: z.string().describe('Numeric id') });

/** Error answers of a route behind `app.scope(...)`. */
export const scopedErrors = { 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
