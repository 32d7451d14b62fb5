import { env } from '../config/env.ts';

export interface AnalyticsEvent {
  name: string;
  value?: string;
  at: string;
}

/**
 * Product analytics, disabled by default (VITE_ANALYTICS=on enables it). When enabled, events are
 * kept in memory and, if VITE_ANALYTICS_URL is set, sent there with sendBeacon.
 */
export function createAnalytics(options: { enabled: boolean; url?: string }) {
  let enabled = options.enabled;
  const events: AnalyticsEvent[] = [];
  return {
    isEnabled: () => enabled,
    setEnabled(next: boolean) {
      enabled = next;
    },
    trackEvent(name: string, value?: string) {
      if (!enabled) return;
      const event: AnalyticsEvent = { name, value, at: new Date().toISOString() };
      events.push(event);
      if (events.length > 500) events.shift();
      if (options.url && typeof navigator !== 'undefined' && 'sendBeacon' in navigator) {
        try {
          navigator.sendBeacon(options.url, JSON.stringify(event));
        } catch {
          /* analytics never breaks the app */
        }
      }
    },
    events: (): readonly AnalyticsEvent[] => events,
    clear() {
      events.length = 0;
    },
  };
}

export type Analytics = ReturnType<typeof createAnalytics>;

export const analytics: Analytics = createAnalytics({ enabled: env.analyticsEnabled, url: env.analyticsUrl });
