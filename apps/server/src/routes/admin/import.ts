import {
  ADMIN_TEXTS,
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_OPTIONAL_COLUMNS,
  ImportQuerySchema,
  ImportResultSchema,
  ImportRowSchema,
} from '@forecourt/contract/admin';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { neutraliseCsvCell } from '@forecourt/contract/csv';
import { CsvError, parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../lib/errors.ts';
import { createFleetImportService, type ImportLine } from '../../services/fleet-import.ts';

/** 20,000 rows of about 100 bytes, with room to spare. */
const CSV_BODY_LIMIT = 8 * 1024 * 1024;

/** Parses the CSV text (header row first) into checked lines; a malformed file is a 400. */
export function readImportCsv(text: string): ImportLine[] {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      max_record_size: 64 * 1024,
    }) as string[][];
  } catch (err) {
    if (err instanceof CsvError)
      throw badRequest(`The CSV could not be read: ${neutraliseCsvCell(err.message)}`);
    throw err;
  }
  const header = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  const missing = IMPORT_COLUMNS.filter((c) => !header.includes(c));
  if (!records.length || missing.length) {
    throw badRequest(
      missing.length && records.length
        ? `${ADMIN_TEXTS.csvHeader} (missing: ${missing.join(', ')})`
        : ADMIN_TEXTS.csvHeader,
    );
  }
  if (records.length - 1 > IMPORT_MAX_ROWS) {
    throw badRequest(`The CSV has ${records.length - 1} rows; at most ${IMPORT_MAX_ROWS} import at once.`);
  }
  // Optional columns (tags) count only when the header names them: a file without them leaves those values alone.
  const present = [...IMPORT_COLUMNS, ...IMPORT_OPTIONAL_COLUMNS.filter((c) => header.includes(c))];
  const index = Object.fromEntries(present.map((c) => [c, header.indexOf(c)]));
  return records.slice(1).map((record, i) => {
    const row = i + 2;
    const raw = Object.fromEntries(present.map((c) => [c, record[index[c]] ?? '']));
    const checked = ImportRowSchema.safeParse(raw);
    if (checked.success) return { row, data: checked.data, errors: [] };
    const errors = checked.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? '');
      return neutraliseCsvCell(
        issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`,
      );
    });
    return { row, data: null, errors: [...new Set(errors)] };
  });
}

/**
 * `POST /api/admin/import/?dry_run=true|false` with a `text/csv` body (docs/product.md#fleet-administration):
 * `company,site_number,site_title,lat,lng,timezone,terminal_id,pumps[,tags]`. Agents only.
 */
export async function importRoutes(app: FastifyInstance) {
  app.addContentTypeParser(
    ['text/csv', 'text/plain'],
    { parseAs: 'string', bodyLimit: CSV_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  const fleetImport = createFleetImportService(app.repos);
  r.post(
    '/api/admin/import/',
    {
      onRequest: [app.authenticate, app.agentOnly('import the fleet')],
      bodyLimit: CSV_BODY_LIMIT,
      schema: {
        tags: ['admin'],
        security: [{ jwt: [] }],
        summary: 'Import companies, sites, terminals and pumps from CSV (agents only)',
        description:
          'Body: `text/csv` with the header `company,site_number,site_title,lat,lng,timezone,terminal_id,pumps` ' +
          '(`pumps`: how many pumps the site has, numbered from 1) and optionally a last column `tags` (the ' +
          "terminal's tags, `;`-separated; they replace its tags, an empty cell clears them). Matches companies by " +
          'name, sites by number within ' +
          'their company and terminals by number. `dry_run=true` (the default) answers row by row and writes ' +
          'nothing; with any bad row nothing is written; otherwise every row goes in one transaction. Error texts ' +
          'are safe to put in a CSV cell.',
        querystring: ImportQuerySchema,
        body: z.string().describe('The CSV text'),
        consumes: ['text/csv'],
        response: {
          200: ImportResultSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          403: ErrorBodySchema,
          413: ErrorBodySchema,
        },
      },
    },
    async (request) => {
      const p = request.principal!;
      const lines = readImportCsv(request.body);
      // Its 'fleet' changes drop the caches, on this node before it answers (plugins/node-sync.ts).
      return fleetImport.run(
        { userId: p.userId, username: p.username, agentId: p.agentId! },
        lines,
        request.query.dry_run,
      );
    },
  );
}
