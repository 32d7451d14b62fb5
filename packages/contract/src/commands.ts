/**
 * The states of a command to a device (pump on/off, reboot) and how every screen names and colours them
 * (docs/api-logs.md): queued → sent → confirmed | failed | timed_out | expired.
 */
export const COMMAND_STATES = ['queued', 'sent', 'confirmed', 'failed', 'timed_out', 'expired'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

/** Colour names of the console's palette (Mantine). */
export type StateColor = 'blue' | 'cyan' | 'teal' | 'red' | 'orange' | 'gray';

export interface CommandStateView {
  /** What the user reads (English; the console translates it). */
  label: string;
  color: StateColor;
  /** Nothing happens to the command after this state. */
  final: boolean;
}

/** One vocabulary for the command drawer, the reboot log and the pump activation log. */
export const COMMAND_STATE_VIEW: Readonly<Record<CommandState, CommandStateView>> = {
  queued: { label: 'Queued', color: 'blue', final: false },
  sent: { label: 'Sent', color: 'cyan', final: false },
  confirmed: { label: 'Done', color: 'teal', final: true },
  failed: { label: 'Failed', color: 'red', final: true },
  timed_out: { label: 'Timed out', color: 'orange', final: true },
  expired: { label: 'Expired', color: 'gray', final: true },
};

export const FINAL_COMMAND_STATES: readonly CommandState[] = COMMAND_STATES.filter(
  (s) => COMMAND_STATE_VIEW[s].final,
);

export function isFinalCommandState(state: CommandState): boolean {
  return COMMAND_STATE_VIEW[state].final;
}

/** The state as the reboot log's `status` field writes it: queued, sent, done, failed, timed out, expired. */
export function commandStatusText(state: CommandState): string {
  return COMMAND_STATE_VIEW[state].label.toLowerCase();
}
