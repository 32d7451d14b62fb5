import { z } from 'zod';
import { ADMIN_ENTITY_NAMES, type AdminEntity } from './admin-entities.ts';
import { ListPageSchema } from './common.ts';
import { splitTagCell, TAG_PATTERN, TAG_RULE, tagListField } from './targets.ts';
import { EMAIL_PATTERN } from './validation.ts';

/**
 * Fleet administration (docs/product.md#fleet-administration): companies, sites, terminals, pumps and users
 * under the caller's agent id, the CSV import and the audit trail. The console's forms validate with the same
 * create / patch schemas the server checks, so a message the form shows is the one the API would answer.
 */

// ---------- field rules ----------

/** Every IANA time zone name this runtime knows (the searchable list of the site form). */
export function timeZoneNames(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const names = intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : [];
  return names.includes('UTC') ? names : [...names, 'UTC'];
}

const IANA_SHAPE = /^(?:UTC|GMT|[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){1,2})$/;
/** Answers of isIanaTimeZone: building a DateTimeFormat costs far more than a lookup (an import checks 10,000 rows). */
const zoneChecks = new Map<string, boolean>();

/** An IANA zone name (e.g. Europe/London; aliases such as Europe/Kiev too), not an offset like +01:00. */
export function isIanaTimeZone(name: string): boolean {
  const known = zoneChecks.get(name);
  if (known !== undefined) return known;
  let ok = IANA_SHAPE.test(name);
  if (ok) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
    } catch {
      ok = false;
    }
  }
  if (zoneChecks.size < 10_000) zoneChecks.set(name, ok);
  return ok;
}

/** Texts of the administration answers (also shown by the console). */
export const ADMIN_TEXTS = {
  timezone: 'timezone must be an IANA time zone name, e.g. Europe/London',
  lat: 'lat must be a number between -90 and 90',
  lng: 'lng must be a number between -180 and 180',
  role: "role must be 'agent', 'company' or 'site'",
  companyIdsNeeded: 'company_ids must name at least one company for a company user',
  siteIdsNeeded: 'site_ids must name at least one site for a site user',
  noAdminAccess: 'Only an agent administers the fleet.',
  csvHeader:
    'The first line must be the header company,site_number,site_title,lat,lng,timezone,terminal_id,pumps (and optionally tags)',
} as const;

const requiredText = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`);

const latField = z
  .number({ error: ADMIN_TEXTS.lat })
  .min(-90, ADMIN_TEXTS.lat)
  .max(90, ADMIN_TEXTS.lat)
  .describe('Latitude, -90 to 90');
const lngField = z
  .number({ error: ADMIN_TEXTS.lng })
  .min(-180, ADMIN_TEXTS.lng)
  .max(180, ADMIN_TEXTS.lng)
  .describe('Longitude, -180 to 180');
const timezoneField = z
  .string({ error: ADMIN_TEXTS.timezone })
  .trim()
  .refine(isIanaTimeZone, ADMIN_TEXTS.timezone)
  .describe('IANA time zone name, e.g. Europe/London');
const idField = (name: string) =>
  z
    .number({ error: `${name} must be a numeric id` })
    .int(`${name} must be a numeric id`)
    .positive(`${name} must be a numeric id`);
const idList = (name: string) =>
  z
    .array(idField(name), { error: `${name} must be a list of numeric ids` })
    .max(1000, `${name} may name at most 1000 ids`)
    .transform((ids) => [...new Set(ids)]);

export const companyNameField = requiredText('name', 200).describe('Company name (unique per agent)');
export const siteNumberField = requiredText('number', 50).describe('Site number, unique within its company');
export const siteTitleField = requiredText('title', 200).describe('Site title');
export const terminalNumberField = requiredText('terminal_id', 50).describe(
  'Terminal number (the displayed terminal id), unique across the fleet',
);
export const PUMP_NO_MAX = 999;
export const pumpNoField = z
  .number({ error: `pump_no must be a whole number from 1 to ${PUMP_NO_MAX}` })
  .int(`pump_no must be a whole number from 1 to ${PUMP_NO_MAX}`)
  .min(1, `pump_no must be a whole number from 1 to ${PUMP_NO_MAX}`)
  .max(PUMP_NO_MAX, `pump_no must be a whole number from 1 to ${PUMP_NO_MAX}`)
  .describe('Pump number, unique within its site');

export const ADMIN_ROLES = ['agent', 'company', 'site'] as const;
export const AdminRoleSchema = z.enum(ADMIN_ROLES, { error: ADMIN_TEXTS.role });
export type AdminRole = z.infer<typeof AdminRoleSchema>;

// ---------- entities ----------

export const CompanySchema = z.object({ id: z.number().int(), name: z.string() }).describe('A company');
export type Company = z.infer<typeof CompanySchema>;

export const AdminSiteSchema = z
  .object({
    id: z.number().int(),
    company_id: z.number().int(),
    title: z.string(),
    number: z.string(),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
    timezone: z.string().describe('IANA time zone name'),
    address: z.string().nullable(),
  })
  .describe('A site');
export type AdminSite = z.infer<typeof AdminSiteSchema>;

export const AdminTerminalSchema = z
  .object({
    id: z.number().int(),
    site_id: z.number().int(),
    terminal_id: z.string().describe('Terminal number'),
    card_acceptor_name: z.string(),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
    has_device_token: z
      .boolean()
      .optional()
      .describe(
        'Whether a device token is provisioned (the token itself is shown only once, when provisioned)',
      ),
    tags: z.array(z.string()).describe('Its tags, lowercased (docs/targets.md)'),
    software_version: z
      .string()
      .nullable()
      .describe('What the device last reported running; null until it reports'),
    created_at: z.string().describe('When the terminal was created (ISO 8601, UTC)'),
  })
  .describe('A terminal');
export type AdminTerminal = z.infer<typeof AdminTerminalSchema>;

export const AdminPumpSchema = z
  .object({ id: z.number().int(), site_id: z.number().int(), pump_no: z.number().int() })
  .describe('A pump; its commands travel through a terminal of its site');
export type AdminPump = z.infer<typeof AdminPumpSchema>;

export const AdminUserSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    name: z.string(),
    role: AdminRoleSchema.nullable().describe(
      'agent, company or site; null for a self-registered user no agent has given a role yet',
    ),
    company_ids: z.array(z.number().int()).describe('Companies of a company user'),
    site_ids: z.array(z.number().int()).describe('Sites of a site user'),
    disabled: z.boolean().describe('A disabled user cannot sign in; its sessions ended when it was disabled'),
  })
  .describe('A user');
export type AdminUser = z.infer<typeof AdminUserSchema>;

// ---------- create / patch bodies ----------

export const CompanyCreateSchema = z.object({ name: companyNameField }).strict();
export type CompanyCreate = z.infer<typeof CompanyCreateSchema>;
export const CompanyPatchSchema = CompanyCreateSchema.partial().strict();
export type CompanyPatch = z.infer<typeof CompanyPatchSchema>;

const addressField = z
  .string({ error: 'address must be text' })
  .trim()
  .max(500, 'address must be at most 500 characters')
  .nullable()
  .describe('Postal address (free text)');

export const SiteCreateSchema = z
  .object({
    company_id: idField('company_id').describe('The company the site belongs to'),
    title: siteTitleField,
    number: siteNumberField,
    lat: latField,
    lng: lngField,
    timezone: timezoneField,
    address: addressField.optional(),
  })
  .strict();
export type SiteCreate = z.infer<typeof SiteCreateSchema>;
export const SitePatchSchema = SiteCreateSchema.partial().strict();
export type SitePatch = z.infer<typeof SitePatchSchema>;

export const TerminalCreateSchema = z
  .object({
    site_id: idField('site_id').describe('The site the terminal stands on'),
    terminal_id: terminalNumberField,
    card_acceptor_name: requiredText('card_acceptor_name', 200).describe('Name printed on receipts'),
    lat: latField.nullable().optional().describe("Latitude; the site's when left out"),
    lng: lngField.nullable().optional().describe("Longitude; the site's when left out"),
    tags: tagListField('tags').optional(),
  })
  .strict();
export type TerminalCreate = z.infer<typeof TerminalCreateSchema>;
export type TerminalCreateInput = z.input<typeof TerminalCreateSchema>;
export const TerminalPatchSchema = TerminalCreateSchema.partial().strict();
export type TerminalPatch = z.infer<typeof TerminalPatchSchema>;

export const PumpCreateSchema = z
  .object({ site_id: idField('site_id').describe('The site of the pump'), pump_no: pumpNoField })
  .strict();
export type PumpCreate = z.infer<typeof PumpCreateSchema>;
export const PumpPatchSchema = PumpCreateSchema.partial().strict();
export type PumpPatch = z.infer<typeof PumpPatchSchema>;

const usernameField = z
  .string({ error: 'username is required' })
  .trim()
  .min(1, 'username is required')
  .max(150, 'username must be at most 150 characters')
  .regex(/^[\p{L}\p{N}._@+-]+$/u, 'username may hold letters, digits and . _ @ + - only');
const emailField = z
  .string({ error: 'email is required' })
  .trim()
  .min(1, 'email is required')
  .max(254, 'email must be a real address')
  .regex(EMAIL_PATTERN, 'email must be a real address');
const nameField = z
  .string({ error: 'name must be text' })
  .trim()
  .max(50, 'name must be at most 50 characters');

function checkRoleScope(
  v: { role?: AdminRole | null; company_ids?: number[]; site_ids?: number[] },
  ctx: z.RefinementCtx,
) {
  if (v.role === 'company' && !v.company_ids?.length) {
    ctx.addIssue({ code: 'custom', path: ['company_ids'], message: ADMIN_TEXTS.companyIdsNeeded });
  }
  if (v.role === 'site' && !v.site_ids?.length) {
    ctx.addIssue({ code: 'custom', path: ['site_ids'], message: ADMIN_TEXTS.siteIdsNeeded });
  }
}

/**
 * A new user: role and scope (company_ids for a company user, site_ids for a site user; an agent user works
 * under the caller's agent id). The user receives a set-password link by mail (or in the server log).
 */
export const UserCreateSchema = z
  .object({
    username: usernameField,
    email: emailField,
    name: nameField.default(''),
    role: AdminRoleSchema,
    company_ids: idList('company_ids').default([]),
    site_ids: idList('site_ids').default([]),
    disabled: z.boolean({ error: 'disabled must be true or false' }).default(false),
  })
  .strict()
  .superRefine(checkRoleScope);
export type UserCreate = z.infer<typeof UserCreateSchema>;
export type UserCreateInput = z.input<typeof UserCreateSchema>;

/**
 * Change a user. Setting `role` replaces the scope: company_ids / site_ids given with it (a company user needs
 * company_ids, a site user site_ids). `disabled: true` ends every session and live stream of the user at once.
 */
export const UserPatchSchema = z
  .object({
    username: usernameField.optional(),
    email: emailField.optional(),
    name: nameField.optional(),
    role: AdminRoleSchema.optional(),
    company_ids: idList('company_ids').optional(),
    site_ids: idList('site_ids').optional(),
    disabled: z.boolean({ error: 'disabled must be true or false' }).optional(),
  })
  .strict()
  .superRefine(checkRoleScope);
export type UserPatch = z.infer<typeof UserPatchSchema>;

// ---------- lists ----------

const beforeCursor = ListPageSchema.shape.before.describe(
  'Cursor: only rows older than this one (the id of the last row seen; also in X-Next-Cursor and Link)',
);
const qField = z
  .string()
  .max(200, 'q must be at most 200 characters')
  .optional()
  .describe('Case-insensitive substring search');
const idFilter = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a numeric id`)
    .transform(Number)
    .optional();

/** Lists are newest first and page like the logs (docs/api-logs.md): `limit_to`, `before`. */
export const AdminListQuerySchema = z.object({
  q: qField,
  limit_to: ListPageSchema.shape.limit_to,
  before: beforeCursor,
});
export type AdminListQuery = z.infer<typeof AdminListQuerySchema>;
export const CompanyListQuerySchema = AdminListQuerySchema.describe('Search: name');
export const SiteListQuerySchema = AdminListQuerySchema.extend({
  company_id: idFilter('company_id').describe('Only sites of this company'),
}).describe('Search: title, number, address');
const tagFilterItem = z
  .string()
  .transform((t) => t.trim().toLowerCase())
  .pipe(z.string().regex(TAG_PATTERN, `tag must be a tag (${TAG_RULE})`));
export const TerminalListQuerySchema = AdminListQuerySchema.extend({
  site_id: idFilter('site_id').describe('Only terminals of this site'),
  tag: z
    .union([tagFilterItem, z.array(tagFilterItem).max(20, 'tag: at most 20 values')], {
      error: `tag must be a tag (${TAG_RULE})`,
    })
    .transform((v) => [...new Set(Array.isArray(v) ? v : [v])])
    .optional()
    .describe('Repeatable: only terminals carrying every one of these tags'),
}).describe('Search: terminal number, card acceptor name');
export const PumpListQuerySchema = AdminListQuerySchema.extend({
  site_id: idFilter('site_id').describe('Only pumps of this site'),
}).describe('Search: pump number, site title or number');
export const UserListQuerySchema = AdminListQuerySchema.extend({
  role: z
    .enum([...ADMIN_ROLES, 'none'], { error: "role must be 'agent', 'company', 'site' or 'none'" })
    .optional()
    .describe('Only users of this role; none: users waiting for a role'),
}).describe('Search: username, email, name');

/**
 * Each administered entity (admin-entities.ts): what one of them is called (the audit's `entity`, the API's texts),
 * the entities it belongs to, whose changes show in its rows (a site's title on its pumps), and its object as its
 * list, reads and writes answer it. The server's routes, the audit's entity names and the console's lists and
 * forms derive from this table and ADMIN_REQUEST_SCHEMAS.
 */
export const ADMIN_ENTITIES = {
  companies: { one: 'company', parents: [], row: CompanySchema },
  sites: { one: 'site', parents: ['companies'], row: AdminSiteSchema },
  terminals: { one: 'terminal', parents: ['sites'], row: AdminTerminalSchema },
  pumps: { one: 'pump', parents: ['sites'], row: AdminPumpSchema },
  users: { one: 'user', parents: ['companies', 'sites'], row: AdminUserSchema },
} as const satisfies Record<
  AdminEntity,
  { one: string; parents: readonly AdminEntity[]; row: z.ZodType<{ id: number }> }
>;

/**
 * What each administered entity's requests carry: its list query, create and patch bodies, and what a list's `q`
 * searches (the API's documentation of the list; the users' routes are written out, with their own).
 */
export const ADMIN_REQUEST_SCHEMAS = {
  companies: {
    list: CompanyListQuerySchema,
    create: CompanyCreateSchema,
    patch: CompanyPatchSchema,
    searches: 'the name',
  },
  sites: {
    list: SiteListQuerySchema,
    create: SiteCreateSchema,
    patch: SitePatchSchema,
    searches: 'title, number and address; `company_id` keeps one company',
  },
  terminals: {
    list: TerminalListQuerySchema,
    create: TerminalCreateSchema,
    patch: TerminalPatchSchema,
    searches:
      'terminal number and card acceptor name; `site_id` keeps one site; `tag` (repeatable) keeps the terminals ' +
      'carrying every listed tag',
  },
  pumps: {
    list: PumpListQuerySchema,
    create: PumpCreateSchema,
    patch: PumpPatchSchema,
    searches: 'pump number, site title and site number; `site_id` keeps one site',
  },
  users: { list: UserListQuerySchema, create: UserCreateSchema, patch: UserPatchSchema },
} satisfies Record<AdminEntity, { list: z.ZodType; create: z.ZodType; patch: z.ZodType; searches?: string }>;

/** A 409 for a delete that still has live children names them. */
export const AdminChildSchema = z.object({
  entity: z.enum(['site', 'terminal', 'pump']),
  id: z.number().int(),
  label: z.string().describe('Site title and number, terminal number or pump number'),
});
export type AdminChild = z.infer<typeof AdminChildSchema>;
export const AdminConflictSchema = z.object({
  data: z.object({ errors: z.array(z.string()) }),
  children: z.array(AdminChildSchema).optional().describe('The live children that block a delete'),
});

// ---------- import ----------

export const IMPORT_COLUMNS = [
  'company',
  'site_number',
  'site_title',
  'lat',
  'lng',
  'timezone',
  'terminal_id',
  'pumps',
] as const;
/** Columns a file may add after the required ones, in this order. */
export const IMPORT_OPTIONAL_COLUMNS = ['tags'] as const;
export const IMPORT_MAX_ROWS = 20_000;
export const IMPORT_MAX_PUMPS = 64;

export const ImportQuerySchema = z.object({
  dry_run: z
    .enum(['true', 'false', '1', '0'], { error: 'dry_run must be true or false' })
    .default('true')
    .transform((v) => v === 'true' || v === '1')
    .describe('true (default): check and answer row by row, write nothing'),
});

/** One CSV line once parsed, before matching (the import checks each with this schema). */
export const ImportRowSchema = z.object({
  company: companyNameField.describe('Company name (matched by name)'),
  site_number: requiredText('site_number', 50),
  site_title: requiredText('site_title', 200),
  lat: z.coerce.number({ error: ADMIN_TEXTS.lat }).min(-90, ADMIN_TEXTS.lat).max(90, ADMIN_TEXTS.lat),
  lng: z.coerce.number({ error: ADMIN_TEXTS.lng }).min(-180, ADMIN_TEXTS.lng).max(180, ADMIN_TEXTS.lng),
  timezone: timezoneField,
  terminal_id: requiredText('terminal_id', 50),
  pumps: z.coerce
    .number({ error: `pumps must be a whole number from 0 to ${IMPORT_MAX_PUMPS}` })
    .int(`pumps must be a whole number from 0 to ${IMPORT_MAX_PUMPS}`)
    .min(0, `pumps must be a whole number from 0 to ${IMPORT_MAX_PUMPS}`)
    .max(IMPORT_MAX_PUMPS, `pumps must be a whole number from 0 to ${IMPORT_MAX_PUMPS}`),
  tags: z
    .preprocess((cell) => (typeof cell === 'string' ? splitTagCell(cell) : cell), tagListField('tags'))
    .optional()
    .describe(
      "The terminal's tags, `;`-separated; when the column is there, they replace the terminal's tags",
    ),
});
export type ImportRow = z.infer<typeof ImportRowSchema>;

export const ImportRowResultSchema = z.object({
  row: z.number().int().describe('Line number in the file (the header is line 1)'),
  action: z.enum(['create', 'update', 'unchanged', 'error']),
  errors: z.array(z.string()).describe('What is wrong with the row (CSV-safe text)'),
});
export type ImportRowResult = z.infer<typeof ImportRowResultSchema>;
export const ImportResultSchema = z
  .object({
    rows: z.array(ImportRowResultSchema),
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    errors: z.number().int().describe('Rows with an error; when > 0 nothing was written'),
    dry_run: z.boolean().optional(),
  })
  .describe(
    'Row by row: create (a new terminal), update (the terminal or its site changes), unchanged, error',
  );
export type ImportResult = z.infer<typeof ImportResultSchema>;

// ---------- audit ----------

/** Audited objects that are not administered entities (ADMIN_ENTITIES). */
const AUDITED_OBJECTS = [
  'alert',
  'import',
  'alert_rule',
  'maintenance_window',
  'api_key',
  'contact_point',
  'notification_policy',
  'report_schedule',
  'software_package',
  'rollout',
] as const;
export type AuditEntity = (typeof ADMIN_ENTITIES)[AdminEntity]['one'] | (typeof AUDITED_OBJECTS)[number];
/** What the audit's `entity` names: the administered entities (in menu order), then the other audited objects. */
export const AUDIT_ENTITIES = [
  ...ADMIN_ENTITY_NAMES.map((name) => ADMIN_ENTITIES[name].one),
  ...AUDITED_OBJECTS,
] as unknown as readonly [AuditEntity, ...AuditEntity[]];
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'decommission',
  'disable',
  'provision_token',
  'acknowledge',
  'import',
  'reboot',
  'delete',
  'end',
  'run',
  'pause',
  'resume',
  'cancel',
] as const;

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    cursor: z.string().describe('Pass as `before` to get the entries after this one'),
    at: z.string().describe('ISO 8601 time in UTC'),
    user: z.string().nullable().describe('Username of who did it'),
    action: z.string().describe(`One of ${AUDIT_ACTIONS.join(', ')}`),
    entity: z.string().describe(`One of ${AUDIT_ENTITIES.join(', ')}`),
    entity_id: z.number().int().nullable(),
    before: z.unknown().describe('The object before the change (null for a creation)'),
    after: z.unknown().describe('The object after the change (null when nothing remains to show)'),
  })
  .describe('One administrative change');
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditQuerySchema = z.object({
  limit_to: ListPageSchema.shape.limit_to,
  before: beforeCursor,
  entity: z
    .enum(AUDIT_ENTITIES, { error: `entity must be ${AUDIT_ENTITIES.join(', ')}` })
    .optional()
    .describe('Only entries about this kind of object'),
  user: z
    .string()
    .max(150, 'user must be at most 150 characters')
    .optional()
    .describe('Only entries by this username'),
  entity_id: idFilter('entity_id').describe('Only entries about this object (with entity)'),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;
