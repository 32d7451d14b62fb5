import { describe, expect, it } from 'vitest';
import {
  COMMAND_STATE_VIEW,
  COMMAND_STATES,
  commandStatusText,
  FINAL_COMMAND_STATES,
  isFinalCommandState,
} from './commands.ts';

describe('command states', () => {
  it('are named as the reboot log shows them: queued, sent, done, failed, timed out (and expired)', () => {
    expect(COMMAND_STATES.map((s) => COMMAND_STATE_VIEW[s].label)).toEqual([
      'Queued',
      'Sent',
      'Done',
      'Failed',
      'Timed out',
      'Expired',
    ]);
    expect(COMMAND_STATES.map(commandStatusText)).toEqual([
      'queued',
      'sent',
      'done',
      'failed',
      'timed out',
      'expired',
    ]);
  });

  it('give each state its own colour', () => {
    const colors = COMMAND_STATES.map((s) => COMMAND_STATE_VIEW[s].color);
    expect(new Set(colors).size).toBe(COMMAND_STATES.length);
  });

  it('end with confirmed, failed, timed out or expired; queued and sent are under way', () => {
    expect(FINAL_COMMAND_STATES).toEqual(['confirmed', 'failed', 'timed_out', 'expired']);
    expect(isFinalCommandState('queued')).toBe(false);
    expect(isFinalCommandState('sent')).toBe(false);
    expect(isFinalCommandState('timed_out')).toBe(true);
  });
});
