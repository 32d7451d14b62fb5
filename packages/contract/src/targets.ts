import { z } from 'zod';

/**
 * Tags and targets (docs/targets.md). A terminal carries up to 20 tags; a target names the live terminals inside a
 * scope (an agent, a company, a site or one terminal) that carry every tag it lists. Rules, maintenance windows,
 * notification policies, rollouts and bulk commands all aim at a target, and the server resolves it when it is used.
 */

export const MAX_TAGS = 20;
export const TAG_MAX_LENGTH = 32;
/** A tag once lowercased: 1–32 characters of a-z, 0-9, `-`, `_` and `.`. */
export const TAG_PATTERN = /^[a-z0-9._-]{1,32}$/;
export const TAG_RULE = '1–32 characters of a-z 0-9 - _ .';

/** How a tag is stored: trimmed and lowercased (the pattern is checked on this). */
export const normalizeTag = (tag: string) => tag.trim().toLowerCase();

export const isTag = (tag: string) => TAG_PATTERN.test(tag);

/** Tags lowercased, each once, in the order first given. */
export function uniqueTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map(normalizeTag))];
}

/** The tags of a CSV cell: `;`-separated, blanks ignored (an empty cell is no tags). */
export function splitTagCell(cell: string): string[] {
  return cell
    .split(';')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}

const shown = (v: unknown) => {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
};

/** Every problem of a tag list, each message starting with `name` (at most 5 labels named). */
export function tagListProblems(name: string, items: readonly unknown[]): string[] {
  const problems: string[] = [];
  const bad = items.filter((t) => typeof t !== 'string' || !isTag(normalizeTag(t)));
  for (const t of bad.slice(0, 5)) problems.push(`${name}: ${shown(t)} is not a tag (${TAG_RULE})`);
  if (bad.length > 5) problems.push(`${name}: ${bad.length - 5} more labels are not tags`);
  const distinct = new Set(items.filter((t): t is string => typeof t === 'string').map(normalizeTag));
  if (distinct.size > MAX_TAGS) problems.push(`${name} may hold at most ${MAX_TAGS} tags`);
  return problems;
}

/** A list of tags under the field `name`: lowercased and each kept once; any bad label → one message naming `name`. */
export function tagListField(name = 'tags') {
  return z
    .array(z.unknown(), { error: `${name} must be a list of tags (${TAG_RULE})` })
    .superRefine((items, ctx) => {
      for (const message of tagListProblems(name, items)) ctx.addIssue({ code: 'custom', message });
    })
    .transform((items) => uniqueTags(items as string[]))
    .describe(`Up to ${MAX_TAGS} tags, each ${TAG_RULE} (lowercased on input)`);
}

export const TARGET_SCOPE_KINDS = ['agent', 'company', 'site', 'terminal'] as const;
export type TargetScopeKind = (typeof TARGET_SCOPE_KINDS)[number];

export const TARGET_TEXTS = {
  target: 'target must be an object {scope: {kind, id}, tags}',
  scope: 'target.scope must be an object {kind, id}',
  kind: "target.scope.kind must be 'agent', 'company', 'site' or 'terminal'",
  id: 'target.scope.id must be a numeric id',
} as const;

/** The object's own message, except for unknown keys, which are named. */
const objectError =
  (name: string, message: string) =>
  (issue: { code?: string; keys?: readonly string[] }): string =>
    issue.code === 'unrecognized_keys' && issue.keys?.length
      ? `${name}: unknown field ${issue.keys.join(', ')}`
      : message;

export const TargetScopeSchema = z
  .object(
    {
      kind: z
        .enum(TARGET_SCOPE_KINDS, { error: TARGET_TEXTS.kind })
        .describe('agent, company, site or terminal'),
      id: z
        .number({ error: TARGET_TEXTS.id })
        .int(TARGET_TEXTS.id)
        .positive(TARGET_TEXTS.id)
        .max(2_147_483_647, TARGET_TEXTS.id)
        .describe('Id of the agent, company, site or terminal'),
    },
    { error: objectError('target.scope', TARGET_TEXTS.scope) },
  )
  .strict();
export type TargetScope = z.infer<typeof TargetScopeSchema>;

export const TargetSchema = z
  .object(
    {
      scope: TargetScopeSchema,
      tags: tagListField('target.tags')
        .default([])
        .describe('Terminals must carry every one of these tags (empty: every live terminal of the scope)'),
    },
    { error: objectError('target', TARGET_TEXTS.target) },
  )
  .strict()
  .describe(
    'A set of terminals: the live terminals inside `scope` carrying every tag in `tags`, evaluated when used',
  );
export type Target = z.infer<typeof TargetSchema>;
export type TargetInput = z.input<typeof TargetSchema>;

/** `POST /api/targets/preview/`: what a target reaches now (the target picker's count). */
export const TargetPreviewRequestSchema = z
  .object({
    target: TargetSchema,
    limit_to: z
      .number({ error: 'limit_to must be a whole number from 0 to 1000' })
      .int('limit_to must be a whole number from 0 to 1000')
      .min(0, 'limit_to must be a whole number from 0 to 1000')
      .max(1000, 'limit_to must be a whole number from 0 to 1000')
      .default(20)
      .describe('How many of the terminals to list (default 20; 0: only the count)'),
  })
  .strict();
export type TargetPreviewRequest = z.infer<typeof TargetPreviewRequestSchema>;

export const TargetTerminalSchema = z.object({
  id: z.number().int(),
  terminal_id: z.string().describe('Terminal number'),
  site_id: z.number().int(),
  site_title: z.string(),
  tags: z.array(z.string()),
});
export type TargetTerminal = z.infer<typeof TargetTerminalSchema>;

export const TargetPreviewSchema = z
  .object({
    count: z.number().int().describe('How many live terminals the target reaches now'),
    terminals: z.array(TargetTerminalSchema).describe('The first `limit_to` of them, by terminal number'),
  })
  .describe('What a target reaches now');
export type TargetPreview = z.infer<typeof TargetPreviewSchema>;

/** What a device reports it runs (`software_version` in its telemetry): text of 1–64 printable characters. */
export const SOFTWARE_VERSION_TEXT = 'software_version must be text of 1 to 64 printable characters';
export const softwareVersionField = z
  .string({ error: SOFTWARE_VERSION_TEXT })
  .trim()
  .min(1, SOFTWARE_VERSION_TEXT)
  .max(64, SOFTWARE_VERSION_TEXT)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  .regex(/^[^\u0000-\u001f\u007f]+$/, SOFTWARE_VERSION_TEXT)
  .describe('The software version the terminal runs, as the device reports it (at most 64 characters)');
