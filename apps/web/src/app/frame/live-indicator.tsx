import { useTranslation } from 'react-i18next';
import { DeferredTooltip } from '../../components/on-demand.tsx';
import { type LiveState, useLiveState } from '../../lib/live-stream-state.ts';
import './live-indicator.css';

const LABEL: Record<Exclude<LiveState, 'off'>, string> = {
  live: 'LIVE_STATUS_LIVE',
  connecting: 'LIVE_STATUS_CONNECTING',
  reconnecting: 'LIVE_STATUS_RECONNECTING',
};

/**
 * "Live" while the tab's stream of changes is open, "Reconnecting…" while it is being opened again (the
 * screen polls meanwhile). A status region: a screen reader hears the change; at phone width the dot
 * shows alone and the word stays for assistive technology.
 */
export function LiveIndicator() {
  const { t } = useTranslation();
  const state = useLiveState();
  if (state === 'off') return null;
  const label = t(LABEL[state]);
  const hint = t(state === 'live' ? 'LIVE_STATUS_LIVE_HINT' : 'LIVE_STATUS_DOWN_HINT');
  return (
    <DeferredTooltip label={hint} multiline maw={260} withArrow>
      <span role="status" aria-label={label} className="fc-live" data-state={state} data-testid="live-status">
        <span className="fc-live-dot" aria-hidden />
        <span className="fc-live-text">{label}</span>
      </span>
    </DeferredTooltip>
  );
}
