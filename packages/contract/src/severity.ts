/** Alert severities (docs/event-types.md#severity), apart from the catalogue so a screen can use them alone. */
/** How bad an alert is, worst first. */
export const SEVERITIES = ['critical', 'major', 'minor', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** 0 for critical … 3 for info: smaller is worse. */
export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s);
}

/** True when `s` is `min` or worse (`atLeast('major', 'minor')` is true). */
export function atLeast(s: Severity, min: Severity): boolean {
  return severityRank(s) <= severityRank(min);
}
