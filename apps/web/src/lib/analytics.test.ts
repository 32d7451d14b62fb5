import { describe, expect, it } from 'vitest';
import { analytics, createAnalytics } from './analytics.ts';

describe('analytics', () => {
  it('is disabled by default and records nothing', () => {
    expect(analytics.isEnabled()).toBe(false);
    analytics.trackEvent('switchTheme', 'cosmic');
    expect(analytics.events()).toHaveLength(0);
  });

  it('records events when enabled', () => {
    const a = createAnalytics({ enabled: true });
    a.trackEvent('switchTheme', 'cosmic');
    expect(a.events()).toEqual([expect.objectContaining({ name: 'switchTheme', value: 'cosmic' })]);
  });
});
