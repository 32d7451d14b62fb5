import { z } from 'zod';
import { TargetAnswerSchema } from './alert-rules.ts';
import { ListPageSchema } from './common.ts';
import { SEVERITIES } from './severity.ts';
import { TargetSchema } from './targets.ts';
import { EMAIL_PATTERN } from './validation.ts';

/**
 * Notifications (docs/integrations.md): contact points (where a notification goes), policies (which alerts go to
 * which contact points, and to whom they escalate) and the deliveries the server sends, retries and logs.
 */

export const CONTACT_POINT_KINDS = ['email', 'webhook', 'slack', 'teams'] as const;
export type ContactPointKind = (typeof CONTACT_POINT_KINDS)[number];
/** Who owns a contact point: a scope (never a single terminal). */
export const OWNER_KINDS = ['agent', 'company', 'site'] as const;
export type OwnerKind = (typeof OWNER_KINDS)[number];

export const DELIVERY_EVENTS = ['alert.raised', 'alert.escalated', 'alert.cleared', 'test'] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];
export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Longest wait before escalating: a week. */
export const MAX_ESCALATE_AFTER_S = 604_800;
export const MAX_ADDRESSES = 20;
export const MAX_POLICY_IDS = 50;

export const NOTIFICATION_TEXTS = {
  name: 'name must be 1 to 120 characters',
  kind: `kind must be one of ${CONTACT_POINT_KINDS.join(', ')}`,
  addresses: `addresses must list 1 to ${MAX_ADDRESSES} email addresses`,
  address: (a: string) => `addresses: "${a}" is not an email address`,
  addressesOnlyEmail: 'addresses are for email contact points only (the others take url)',
  url: 'url must be an http:// or https:// URL',
  urlOnlyOthers: 'url is for webhook, slack and teams contact points (email takes addresses)',
  secret: 'secret must be 16 to 256 characters',
  owner: "owner must be {kind: 'agent'|'company'|'site', id}",
  minSeverity: `min_severity must be one of ${SEVERITIES.join(', ')}`,
  eventTypes: 'event_types must be a list of event type numbers (empty: every type)',
  ruleIds: 'rule_ids must be a list of rule ids (empty: every alert)',
  contactPointIds: `contact_point_ids must list 1 to ${MAX_POLICY_IDS} contact point ids`,
  escalateAfter: `escalate_after_s must be null or a whole number of seconds from 0 to ${MAX_ESCALATE_AFTER_S}`,
  escalateTo: `escalate_to_ids must be a list of at most ${MAX_POLICY_IDS} contact point ids`,
  enabled: 'enabled must be true or false',
  siteUsers: 'Site users cannot manage notifications; agents and company users do.',
} as const;

const name = z
  .string({ error: NOTIFICATION_TEXTS.name })
  .trim()
  .min(1, NOTIFICATION_TEXTS.name)
  .max(120, NOTIFICATION_TEXTS.name);
const kind = z.enum(CONTACT_POINT_KINDS, { error: NOTIFICATION_TEXTS.kind });
const addresses = z
  .array(z.string({ error: NOTIFICATION_TEXTS.addresses }).trim(), { error: NOTIFICATION_TEXTS.addresses })
  .max(MAX_ADDRESSES, NOTIFICATION_TEXTS.addresses)
  .superRefine((list, ctx) => {
    for (const a of list)
      if (!EMAIL_PATTERN.test(a) || a.length > 254)
        ctx.addIssue({ code: 'custom', message: NOTIFICATION_TEXTS.address(a) });
  })
  .describe('Email contact points: where the mail goes');
const url = z
  .string({ error: NOTIFICATION_TEXTS.url })
  .trim()
  .max(2000, NOTIFICATION_TEXTS.url)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, NOTIFICATION_TEXTS.url)
  .describe('Webhook, Slack and Teams contact points: the URL posted to');
const secret = z
  .string({ error: NOTIFICATION_TEXTS.secret })
  .min(16, NOTIFICATION_TEXTS.secret)
  .max(256, NOTIFICATION_TEXTS.secret)
  .describe('Write-only webhook signing key; generated when left out and shown once in the creation answer');
export const OwnerSchema = z
  .object(
    {
      kind: z.enum(OWNER_KINDS, { error: NOTIFICATION_TEXTS.owner }),
      id: z
        .number({ error: NOTIFICATION_TEXTS.owner })
        .int(NOTIFICATION_TEXTS.owner)
        .positive(NOTIFICATION_TEXTS.owner),
    },
    { error: NOTIFICATION_TEXTS.owner },
  )
  .strict();
export type Owner = z.infer<typeof OwnerSchema>;

/** The checks across a contact point's fields, as issues on the field at fault. */
export function contactPointProblems(c: {
  kind?: ContactPointKind;
  addresses?: string[] | null;
  url?: string | null;
}): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  if (c.kind === 'email') {
    if (!c.addresses?.length) out.push({ path: 'addresses', message: NOTIFICATION_TEXTS.addresses });
    if (c.url) out.push({ path: 'url', message: NOTIFICATION_TEXTS.urlOnlyOthers });
  } else if (c.kind) {
    if (!c.url) out.push({ path: 'url', message: NOTIFICATION_TEXTS.url });
    if (c.addresses?.length) out.push({ path: 'addresses', message: NOTIFICATION_TEXTS.addressesOnlyEmail });
  }
  return out;
}

export const ContactPointCreateSchema = z
  .object({
    name,
    kind,
    addresses: addresses.optional(),
    url: url.nullable().optional(),
    secret: secret.optional(),
    owner: OwnerSchema.optional().describe(
      "Whose it is (default: the caller's own scope); a scope inside the caller's",
    ),
  })
  .strict()
  .superRefine((c, ctx) => {
    for (const p of contactPointProblems(c))
      ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
  });
export type ContactPointCreate = z.output<typeof ContactPointCreateSchema>;
export type ContactPointCreateInput = z.input<typeof ContactPointCreateSchema>;

/** A change: any field of the creation (the kind stays); the checks across fields run on the result. */
export const ContactPointPatchSchema = z
  .object({
    name: name.optional(),
    addresses: addresses.optional(),
    url: url.nullable().optional(),
    secret: secret.optional(),
    owner: OwnerSchema.optional(),
  })
  .strict();
export type ContactPointPatch = z.output<typeof ContactPointPatchSchema>;

export const ContactPointSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    kind: z.enum(CONTACT_POINT_KINDS),
    addresses: z.array(z.string()).describe('Email contact points: the addresses (empty for the others)'),
    url: z.string().nullable().describe('Webhook, Slack and Teams contact points: the URL (null for email)'),
    has_secret: z.boolean().describe('Whether deliveries are signed (X-Forecourt-Signature)'),
    owner: z.object({ kind: z.enum(OWNER_KINDS), id: z.number().int() }),
    created_by: z.string(),
    created_at: z.string(),
  })
  .describe('A contact point');
export type ContactPoint = z.infer<typeof ContactPointSchema>;

/** The creation answer: the contact point and, once, its secret. */
export const ContactPointCreatedSchema = ContactPointSchema.extend({
  secret: z.string().nullable().describe('The signing key, shown this once (null when it has none)'),
});
export type ContactPointCreated = z.infer<typeof ContactPointCreatedSchema>;

const idList = (message: string) =>
  z
    .array(z.number({ error: message }).int(message).positive(message), { error: message })
    .max(MAX_POLICY_IDS, message)
    .transform((ids) => [...new Set(ids)]);
const minSeverity = z.enum(SEVERITIES, { error: NOTIFICATION_TEXTS.minSeverity });
const eventTypes = z
  .array(
    z
      .number({ error: NOTIFICATION_TEXTS.eventTypes })
      .int(NOTIFICATION_TEXTS.eventTypes)
      .min(0, NOTIFICATION_TEXTS.eventTypes)
      .max(32767, NOTIFICATION_TEXTS.eventTypes),
    { error: NOTIFICATION_TEXTS.eventTypes },
  )
  .max(100, NOTIFICATION_TEXTS.eventTypes)
  .transform((ids) => [...new Set(ids)]);
const contactPointIds = idList(NOTIFICATION_TEXTS.contactPointIds).refine(
  (ids) => ids.length > 0,
  NOTIFICATION_TEXTS.contactPointIds,
);
const escalateAfter = z
  .number({ error: NOTIFICATION_TEXTS.escalateAfter })
  .int(NOTIFICATION_TEXTS.escalateAfter)
  .min(0, NOTIFICATION_TEXTS.escalateAfter)
  .max(MAX_ESCALATE_AFTER_S, NOTIFICATION_TEXTS.escalateAfter)
  .nullable();
const enabled = z.boolean({ error: NOTIFICATION_TEXTS.enabled });

export const NotificationPolicyCreateSchema = z
  .object({
    name,
    target: TargetSchema,
    min_severity: minSeverity.default('info').describe('Only alerts at or above this severity'),
    event_types: eventTypes.default([]).describe('Only alerts of these event types (empty: all)'),
    rule_ids: idList(NOTIFICATION_TEXTS.ruleIds)
      .default([])
      .describe('Only alerts of these rules (empty: all)'),
    contact_point_ids: contactPointIds.describe(
      'Where each matching alert goes (alert.raised, alert.cleared)',
    ),
    escalate_after_s: escalateAfter
      .default(null)
      .describe(
        'Still active and unacknowledged this long after it started: alert.escalated to escalate_to_ids',
      ),
    escalate_to_ids: idList(NOTIFICATION_TEXTS.escalateTo).default([]),
    enabled: enabled.default(true),
  })
  .strict();
export type NotificationPolicyCreate = z.output<typeof NotificationPolicyCreateSchema>;
export type NotificationPolicyCreateInput = z.input<typeof NotificationPolicyCreateSchema>;

export const NotificationPolicyPatchSchema = z
  .object({
    name: name.optional(),
    target: TargetSchema.optional(),
    min_severity: minSeverity.optional(),
    event_types: eventTypes.optional(),
    rule_ids: idList(NOTIFICATION_TEXTS.ruleIds).optional(),
    contact_point_ids: contactPointIds.optional(),
    escalate_after_s: escalateAfter.optional(),
    escalate_to_ids: idList(NOTIFICATION_TEXTS.escalateTo).optional(),
    enabled: enabled.optional(),
  })
  .strict();
export type NotificationPolicyPatch = z.output<typeof NotificationPolicyPatchSchema>;

export const NotificationPolicySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    target: TargetAnswerSchema,
    min_severity: z.enum(SEVERITIES),
    event_types: z.array(z.number().int()),
    rule_ids: z.array(z.number().int()),
    contact_point_ids: z.array(z.number().int()),
    escalate_after_s: z.number().int().nullable(),
    escalate_to_ids: z.array(z.number().int()),
    enabled: z.boolean(),
    created_by: z.string(),
    created_at: z.string(),
  })
  .describe('A notification policy');
export type NotificationPolicy = z.infer<typeof NotificationPolicySchema>;

export const DeliverySchema = z
  .object({
    id: z.number().int().describe('Also the delivery_id a receiver sees (the same on every retry)'),
    alert_id: z.number().int().nullable().describe('null for a test delivery'),
    contact_point_id: z.number().int(),
    event: z.enum(DELIVERY_EVENTS),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    last_status_code: z
      .number()
      .int()
      .nullable()
      .describe('HTTP status of the last attempt (null: no answer)'),
    last_error: z.string().nullable(),
    created_at: z.string(),
    delivered_at: z.string().nullable(),
  })
  .describe('One notification sent to one contact point');
export type Delivery = z.infer<typeof DeliverySchema>;

export const NotificationListQuerySchema = ListPageSchema;

const idQuery = (field: string) =>
  z
    .string()
    .regex(/^\d{1,18}$/, `${field} must be a numeric id`)
    .transform(Number)
    .optional();

export const DeliveryListQuerySchema = z.object({
  ...ListPageSchema.shape,
  alert_id: idQuery('alert_id'),
  contact_point_id: idQuery('contact_point_id'),
  status: z
    .enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
    .optional(),
});
export type DeliveryListQuery = z.infer<typeof DeliveryListQuerySchema>;
