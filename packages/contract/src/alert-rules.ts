import { z } from 'zod';
import { ListPageSchema } from './common.ts';
import { SEVERITIES, type Severity } from './severity.ts';
import { TARGET_SCOPE_KINDS, TargetSchema } from './targets.ts';
import { TELEMETRY_SIGNALS, type TelemetrySignal } from './telemetry-history.ts';

/**
 * Alert rules (docs/rules-and-maintenance.md): a threshold on a telemetry signal, or `no_sales` (a terminal that
 * usually sells at this hour of the week has sold nothing), over a target. The state machine of a telemetry rule
 * (`stepRule`) lives here with its tests; the server runs it as readings arrive.
 */

/** The event type of every alert a rule raises; devices may not report it. */
export const RULE_EVENT_TYPE = 100;

export const RULE_SIGNALS = [...TELEMETRY_SIGNALS, 'no_sales'] as const;
export type RuleSignal = (typeof RULE_SIGNALS)[number];
export const RULE_OPS = ['<', '<=', '>', '>='] as const;
export type RuleOp = (typeof RULE_OPS)[number];
/** `for_s` bounds: up to a week. */
export const MAX_FOR_S = 604_800;

export const RULE_TEXTS = {
  signal: `signal must be one of ${RULE_SIGNALS.join(', ')}`,
  op: "op must be one of '<', '<=', '>', '>='",
  threshold: 'threshold must be a number',
  forS: `for_s must be a whole number of seconds from 0 to ${MAX_FOR_S}`,
  clearBelow: 'clear_threshold must be at or above threshold for a < or <= rule',
  clearAbove: 'clear_threshold must be at or below threshold for a > or >= rule',
  clearNumber: 'clear_threshold must be a number (or null: the threshold)',
  severity: `severity must be one of ${SEVERITIES.join(', ')}`,
  enabled: 'enabled must be true or false',
  noSalesOp: "op must be '>=' for no_sales (the baseline is at least threshold)",
  noSalesThreshold: 'threshold must be above 0 for no_sales (transactions per hour)',
  noSalesFor: 'for_s must be at least 60 for no_sales',
  readOnly: 'Site users read rules; agents and company users write them.',
} as const;

/** Whether `value` meets `op threshold`. */
export function meets(op: RuleOp, value: number, threshold: number): boolean {
  switch (op) {
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
  }
}

/** Whether `clear` lies on the side of `threshold` where the condition no longer holds (or on it). */
export function clearThresholdFits(op: RuleOp, threshold: number, clear: number): boolean {
  return op === '<' || op === '<=' ? clear >= threshold : clear <= threshold;
}

const name = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(120, 'name must be at most 120 characters')
  .describe('Shown at the start of every alert the rule raises');
const signal = z.enum(RULE_SIGNALS, { error: RULE_TEXTS.signal }).describe(RULE_SIGNALS.join(', '));
const op = z.enum(RULE_OPS, { error: RULE_TEXTS.op });
const threshold = z
  .number({ error: RULE_TEXTS.threshold })
  .min(-1_000_000, RULE_TEXTS.threshold)
  .max(1_000_000, RULE_TEXTS.threshold);
const forS = z
  .number({ error: RULE_TEXTS.forS })
  .int(RULE_TEXTS.forS)
  .min(0, RULE_TEXTS.forS)
  .max(MAX_FOR_S, RULE_TEXTS.forS)
  .describe('Seconds the condition must hold before the rule fires (0: the first reading)');
const clearThreshold = z
  .number({ error: RULE_TEXTS.clearNumber })
  .min(-1_000_000, RULE_TEXTS.clearNumber)
  .max(1_000_000, RULE_TEXTS.clearNumber)
  .nullable()
  .describe('The alert clears at the first reading not meeting `op clear_threshold` (default: threshold)');
const severity = z.enum(SEVERITIES, { error: RULE_TEXTS.severity });
const enabled = z.boolean({ error: RULE_TEXTS.enabled });

interface RuleFields {
  signal?: RuleSignal;
  op?: RuleOp;
  threshold?: number;
  for_s?: number;
  clear_threshold?: number | null;
}

/** The checks across fields, as issues on the field at fault. */
export function ruleProblems(r: RuleFields): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  if (r.signal === 'no_sales') {
    if (r.op !== undefined && r.op !== '>=') out.push({ path: 'op', message: RULE_TEXTS.noSalesOp });
    if (r.threshold !== undefined && r.threshold <= 0)
      out.push({ path: 'threshold', message: RULE_TEXTS.noSalesThreshold });
    if (r.for_s !== undefined && r.for_s < 60) out.push({ path: 'for_s', message: RULE_TEXTS.noSalesFor });
  }
  if (
    r.op !== undefined &&
    r.threshold !== undefined &&
    r.clear_threshold !== undefined &&
    r.clear_threshold !== null &&
    !clearThresholdFits(r.op, r.threshold, r.clear_threshold)
  ) {
    out.push({
      path: 'clear_threshold',
      message: r.op === '<' || r.op === '<=' ? RULE_TEXTS.clearBelow : RULE_TEXTS.clearAbove,
    });
  }
  return out;
}

export const AlertRuleCreateSchema = z
  .object({
    name,
    target: TargetSchema,
    signal,
    op: op.optional().describe("'<', '<=', '>' or '>=' ('>=' for no_sales, its default)"),
    threshold: threshold.describe('For no_sales: the least baseline (transactions per hour) that counts'),
    for_s: forS.default(0),
    clear_threshold: clearThreshold.optional(),
    severity: severity.default('major'),
    enabled: enabled.default(true),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.op === undefined && r.signal !== 'no_sales')
      ctx.addIssue({ code: 'custom', path: ['op'], message: RULE_TEXTS.op });
    for (const p of ruleProblems(r)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
  });
export type AlertRuleCreate = z.output<typeof AlertRuleCreateSchema>;
export type AlertRuleCreateInput = z.input<typeof AlertRuleCreateSchema>;

/** A change: any field of the creation; the cross-field checks run on the rule as it would become. */
export const AlertRulePatchSchema = z
  .object({
    name: name.optional(),
    target: TargetSchema.optional(),
    signal: signal.optional(),
    op: op.optional(),
    threshold: threshold.optional(),
    for_s: forS.optional(),
    clear_threshold: clearThreshold.optional(),
    severity: severity.optional(),
    enabled: enabled.optional(),
  })
  .strict();
export type AlertRulePatch = z.output<typeof AlertRulePatchSchema>;

/** A target as answered (the request's `TargetSchema` lowercases and checks; an answer only has the shape). */
export const TargetAnswerSchema = z.object({
  scope: z.object({ kind: z.enum(TARGET_SCOPE_KINDS), id: z.number().int() }),
  tags: z.array(z.string()),
});

export const AlertRuleSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    target: TargetAnswerSchema,
    signal: z.enum(RULE_SIGNALS),
    op: z.enum(RULE_OPS),
    threshold: z.number(),
    for_s: z.number().int(),
    clear_threshold: z.number().nullable().describe('null: the threshold'),
    severity: z.enum(SEVERITIES),
    enabled: z.boolean(),
    created_by: z.string().describe('Username of whoever created it'),
    created_at: z.string().describe('ISO 8601'),
  })
  .describe('An alert rule');
export type AlertRule = z.infer<typeof AlertRuleSchema>;

export const AlertRuleListQuerySchema = z.object({
  ...ListPageSchema.shape,
});

// ---------- preview ----------

/** How many hours back the editor's preview looks (7 days of hourly roll-ups). */
export const RULE_PREVIEW_HOURS = 168;

/**
 * `POST /api/rules/preview/`: the rule as the editor has it, unsaved (name, severity and enabled may be missing or
 * anything; they do not change what would have fired). The same field checks as a creation.
 */
export const AlertRulePreviewRequestSchema = z
  .object({
    name: z.string().max(120, 'name must be at most 120 characters').optional(),
    target: TargetSchema,
    signal,
    op: op.optional().describe("'<', '<=', '>' or '>=' ('>=' for no_sales, its default)"),
    threshold,
    for_s: forS.default(0),
    clear_threshold: clearThreshold.optional(),
    severity: severity.optional(),
    enabled: enabled.optional(),
    limit_to: z
      .number({ error: 'limit_to must be a whole number from 0 to 100' })
      .int('limit_to must be a whole number from 0 to 100')
      .min(0, 'limit_to must be a whole number from 0 to 100')
      .max(100, 'limit_to must be a whole number from 0 to 100')
      .default(10)
      .describe('How many of the terminals that would have fired to list (default 10)'),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.op === undefined && r.signal !== 'no_sales')
      ctx.addIssue({ code: 'custom', path: ['op'], message: RULE_TEXTS.op });
    for (const p of ruleProblems(r)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
  });
export type AlertRulePreviewRequest = z.input<typeof AlertRulePreviewRequestSchema>;

export const AlertRulePreviewTerminalSchema = z.object({
  id: z.number().int(),
  terminal_id: z.string().describe('The terminal number'),
  site_id: z.number().int(),
  site_title: z.string(),
  first_at: z.string().describe('ISO 8601: the start of the hour it would first have fired in'),
  alerts: z.number().int().describe('Roughly how many alerts it would have raised'),
});

export const AlertRulePreviewSchema = z
  .object({
    available: z
      .boolean()
      .describe('false for no_sales: its baseline is not in the telemetry roll-ups, so nothing is computed'),
    from: z.string().describe('ISO 8601: the first hour looked at'),
    to: z.string().describe('ISO 8601: the end of the last hour looked at (the current hour is left out)'),
    terminals: z.number().int().describe('How many terminals the target reaches now'),
    fired: z.number().int().describe('How many of them would have fired at least once'),
    alerts: z.number().int().describe('Roughly how many alerts the rule would have raised'),
    first: z
      .array(AlertRulePreviewTerminalSchema)
      .describe('The first terminals that would have fired, earliest first (up to limit_to)'),
  })
  .describe(
    'What a rule would have fired on over the last 7 days, from the hourly roll-ups (hour granularity)',
  );
export type AlertRulePreview = z.infer<typeof AlertRulePreviewSchema>;

// ---------- evaluation ----------

/** What is kept per rule and terminal between readings. */
export interface RuleState {
  /** Since when the readings have met the condition without a break (null: the last one did not). */
  pendingSince: number | null;
  /** The rule's alert is active for this terminal. */
  firing: boolean;
  /** Time of the newest reading evaluated (readings older than this are ignored). */
  lastAt: number | null;
}

export interface RuleCondition {
  op: RuleOp;
  threshold: number;
  for_s: number;
  clear_threshold: number | null;
}

export type RuleStep =
  | { kind: 'none' }
  | { kind: 'fire'; value: number; at: number }
  | { kind: 'clear'; value: number; at: number };

/**
 * One reading through a telemetry rule: fires when the readings have met `op threshold` for `for_s` seconds without
 * a break (0: at once), clears at the first reading that no longer meets `op clear_threshold`. Readings older than
 * the last one seen change nothing. Answers the new state and what happened.
 */
export function stepRule(
  rule: RuleCondition,
  state: RuleState,
  reading: { value: number; at: number },
): { state: RuleState; step: RuleStep } {
  if (state.lastAt !== null && reading.at < state.lastAt) return { state, step: { kind: 'none' } };
  const lastAt = reading.at;
  if (state.firing) {
    if (meets(rule.op, reading.value, rule.clear_threshold ?? rule.threshold))
      return { state: { ...state, lastAt }, step: { kind: 'none' } };
    return {
      state: { pendingSince: null, firing: false, lastAt },
      step: { kind: 'clear', value: reading.value, at: reading.at },
    };
  }
  if (!meets(rule.op, reading.value, rule.threshold))
    return { state: { pendingSince: null, firing: false, lastAt }, step: { kind: 'none' } };
  const since = state.pendingSince ?? reading.at;
  if (reading.at - since >= rule.for_s * 1000)
    return {
      state: { pendingSince: since, firing: true, lastAt },
      step: { kind: 'fire', value: reading.value, at: reading.at },
    };
  return { state: { pendingSince: since, firing: false, lastAt }, step: { kind: 'none' } };
}

const formatNumber = (v: number) => String(Math.round(v * 100) / 100);

/** The text of a telemetry rule's alert: `'{rule name}: {signal} {value} {op} {threshold}'`. */
export function ruleAlertText(
  rule: { name: string; signal: TelemetrySignal; op: RuleOp; threshold: number },
  value: number,
): string {
  return `${rule.name}: ${rule.signal} ${formatNumber(value)} ${rule.op} ${formatNumber(rule.threshold)}`;
}

/** The text of a no_sales alert: `'{rule name}: no sales for {minutes} min, usually {baseline}/h'`. */
export function noSalesAlertText(name: string, minutes: number, baseline: number): string {
  return `${name}: no sales for ${Math.floor(minutes)} min, usually ${formatNumber(baseline)}/h`;
}

export type { Severity };
