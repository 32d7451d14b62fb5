import { autoPauseReason } from '@forecourt/contract/software';
import { describe, expect, it } from 'vitest';
import { pausedReasonText } from './rollout-page.tsx';

const t = ((key: string, opts?: Record<string, unknown>) => `${key} ${JSON.stringify(opts ?? {})}`) as never;

describe('the paused reason in the reader language', () => {
  it("reads the contract's automatic reason and a manual pause; other text stays as it is", () => {
    expect(pausedReasonText(t, autoPauseReason(2, 3, 7, 5))).toBe(
      `ROLLOUT_AUTO_PAUSE_REASON ${JSON.stringify({ wave: '2', failed: '3', finished: '10', pct: '30', max: '5' })}`,
    );
    expect(pausedReasonText(t, autoPauseReason(1, 1, 2, 12.5))).toMatch(/"pct":"33.3","max":"12.5"/);
    expect(pausedReasonText(t, 'Paused by alex.agent')).toBe(
      `ROLLOUT_PAUSED_BY ${JSON.stringify({ username: 'alex.agent' })}`,
    );
    expect(pausedReasonText(t, 'Something else')).toBe('Something else');
  });
});
