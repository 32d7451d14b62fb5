/**
 * The event-type catalogue (docs/event-types.md): what each `event_type` a device (or the server's
 * connectivity watchdog) reports means. Alert texts follow `'{name}: {details}'`.
 */
import { atLeast, SEVERITIES, type Severity, severityRank } from './severity.ts';

export { atLeast, SEVERITIES, type Severity, severityRank };

export interface EventType {
  code: number;
  name: string;
  /** Severity of every alert of this type. */
  severity: Severity;
  /** A hardware issue: shown by the Hardware issues widget and log. */
  hardware: boolean;
  /** Who raises it: a device, or the server itself (the connectivity watchdog, alert rules). */
  raisedBy: 'device' | 'server';
  /** Typical details after the name, for demo data and the fleet simulator. */
  details: readonly string[];
}

export const EVENT_CATALOGUE: readonly EventType[] = [
  {
    code: 1,
    name: 'Card reader failure',
    severity: 'major',
    hardware: true,
    raisedBy: 'device',
    details: ['reader not responding', 'chip read error', 'contactless module fault'],
  },
  {
    code: 2,
    name: 'Printer failure',
    severity: 'minor',
    hardware: true,
    raisedBy: 'device',
    details: ['paper out', 'paper jam', 'print head overheated'],
  },
  {
    code: 3,
    name: 'Terminal offline',
    severity: 'critical',
    hardware: false,
    raisedBy: 'server',
    details: ['no heartbeat received'],
  },
  {
    code: 4,
    name: 'Terminal online',
    severity: 'info',
    hardware: false,
    raisedBy: 'server',
    details: ['heartbeat restored'],
  },
  {
    code: 5,
    name: 'Pump status change',
    severity: 'info',
    hardware: false,
    raisedBy: 'device',
    details: ['pump stopped by attendant', 'pump resumed'],
  },
  {
    code: 6,
    name: 'Tank low level',
    severity: 'major',
    hardware: false,
    raisedBy: 'device',
    details: ['diesel below 10%', 'unleaded below 15%'],
  },
  {
    code: 7,
    name: 'Door opened',
    severity: 'major',
    hardware: false,
    raisedBy: 'device',
    details: ['cabinet door opened', 'service panel opened'],
  },
  {
    code: 8,
    name: 'Transaction declined burst',
    severity: 'major',
    hardware: false,
    raisedBy: 'device',
    details: ['5 declines in 10 minutes'],
  },
  {
    code: 9,
    name: 'Software update',
    severity: 'info',
    hardware: false,
    raisedBy: 'device',
    details: ['version 4.2.1 installed', 'version 4.2.2 installed'],
  },
  {
    code: 10,
    name: 'Reboot',
    severity: 'info',
    hardware: false,
    raisedBy: 'device',
    details: ['software reboot completed', 'full reboot completed'],
  },
  {
    code: 11,
    name: 'Shock detected',
    severity: 'major',
    hardware: false,
    raisedBy: 'device',
    details: ['impact on cabinet'],
  },
  {
    code: 12,
    name: 'Keypad failure',
    severity: 'major',
    hardware: true,
    raisedBy: 'device',
    details: ['key stuck', 'PIN pad not responding'],
  },
  {
    code: 13,
    name: 'Display failure',
    severity: 'major',
    hardware: true,
    raisedBy: 'device',
    details: ['screen blank', 'backlight fault'],
  },
  {
    code: 14,
    name: 'Power supply failure',
    severity: 'critical',
    hardware: true,
    raisedBy: 'device',
    details: ['mains lost, running on battery', 'voltage out of range'],
  },
  {
    code: 15,
    name: 'Modem failure',
    severity: 'critical',
    hardware: true,
    raisedBy: 'device',
    details: ['no carrier', 'SIM not detected'],
  },
  {
    // Raised by alert rules only, with the rule's own severity and name (docs/rules-and-maintenance.md).
    code: 100,
    name: 'Rule',
    severity: 'major',
    hardware: false,
    raisedBy: 'server',
    details: ['battery_life 15 < 20'],
  },
];

/** The catalogue by code. The API accepts any type from 1 to 999; an uncatalogued one is simply not here. */
export const EVENT_TYPES: Readonly<Record<number, EventType>> = Object.fromEntries(
  EVENT_CATALOGUE.map((e) => [e.code, e]),
);

/** Hardware issues are alerts of these event types (1, 2, 12, 13, 14, 15). */
export const HARDWARE_EVENT_TYPES: readonly number[] = EVENT_CATALOGUE.filter((e) => e.hardware).map(
  (e) => e.code,
);

/** The catalogue's severity of a type; an uncatalogued type is 'minor' until the catalogue names it. */
export function severityOf(code: number): Severity {
  return EVENT_TYPES[code]?.severity ?? 'minor';
}

export function isHardwareEvent(code: number): boolean {
  return EVENT_TYPES[code]?.hardware === true;
}

/** `'{name}: {details}'`, the text convention of alerts. Throws for a type the catalogue does not name. */
export function eventText(code: number, details: string): string {
  const type = EVENT_TYPES[code];
  if (!type) throw new RangeError(`event type ${code} is not in the catalogue`);
  return `${type.name}: ${details}`;
}

/** Every typical text of a type (its name with each of its details). */
export function eventTexts(code: number): string[] {
  return (EVENT_TYPES[code]?.details ?? []).map((d) => eventText(code, d));
}
