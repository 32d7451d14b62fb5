import type { Pump } from '@forecourt/contract/pumps';
import { type PumpState, pumpState } from '@forecourt/contract/rules';
import { ActionIcon, Group, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconHistory } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadCommandTimeline } from '../../../components/command-timeline/command-timeline-drawer.tsx';
import { DeferredTooltip } from '../../../components/on-demand.tsx';
import './pump-switch.css';

const POSITION: Record<PumpState, 'top' | 'bottom' | 'middle'> = {
  on: 'top',
  off: 'bottom',
  pending_on: 'middle',
  pending_off: 'middle',
};

export interface PumpTileProps {
  pump: Pump;
  /** A turn request of this pump is on its way: clicks do nothing. @default false */
  busy?: boolean;
  /** Called on a click of the switch (whatever the state: the caller applies the state machine). */
  onToggle: (pump: Pump) => void;
  /** Opens the pump's command timeline. */
  onHistory?: (pump: Pump) => void;
}

/**
 * One pump: site, pump number, ON or OFF with the 'P.' marker while pending, and the vertical slider
 * switch (top on, bottom off, middle pending; the arrow shows where it goes next).
 */
export function PumpTile({ pump, busy = false, onToggle, onHistory }: PumpTileProps) {
  const { t } = useTranslation();
  const state = pumpState(pump.status, pump.last_synapse_status);
  const pending = state === 'pending_on' || state === 'pending_off';
  const goingUp = state === 'off' || state === 'pending_on';
  const markerId = useId();
  const label = t('PUMP_NO', { pump_no: pump.pump_no });
  const stateText = t(`PUMP_STATE_${state.toUpperCase()}`);

  return (
    <article className="fc-pump-tile" data-state={state} aria-label={`${label} – ${pump.site}`}>
      <Text size="xs" c="dimmed" className="fc-pump-site" title={pump.site} dir="auto">
        {pump.site}
      </Text>
      <Text fw={700} size="sm">
        {label}
      </Text>
      <Group gap={4} wrap="nowrap" justify="center">
        <Text size="sm" fw={700} c={pump.status === 1 ? 'green' : 'dimmed'} data-testid="pump-onoff">
          {pump.status === 1 ? t('PUMP_ON') : t('PUMP_OFF')}
        </Text>
        {pending && (
          <DeferredTooltip label={stateText}>
            <Text size="sm" className="fc-pump-marker" id={markerId} aria-label={stateText}>
              {t('PUMP_PENDING_MARK')}
            </Text>
          </DeferredTooltip>
        )}
      </Group>
      <button
        type="button"
        role="switch"
        className="fc-pump-switch"
        data-position={POSITION[state]}
        aria-checked={pump.status === 1}
        aria-disabled={pending || busy}
        aria-busy={pending || busy}
        aria-describedby={pending ? markerId : undefined}
        aria-label={t('PUMP_SWITCH', { pump_no: pump.pump_no })}
        title={pending ? stateText : pump.status === 1 ? t('PUMP_TURN_OFF_HINT') : t('PUMP_TURN_ON_HINT')}
        onClick={() => onToggle(pump)}
      >
        <span className="fc-pump-knob" aria-hidden>
          {goingUp ? <IconArrowUp size={16} stroke={2.5} /> : <IconArrowDown size={16} stroke={2.5} />}
        </span>
      </button>
      {onHistory && (
        <ActionIcon
          variant="subtle"
          size="sm"
          color="gray"
          aria-label={t('PUMP_HISTORY', { pump_no: pump.pump_no })}
          title={t('PUMP_HISTORY', { pump_no: pump.pump_no })}
          onClick={() => onHistory(pump)}
          onPointerEnter={preloadCommandTimeline}
          onFocus={preloadCommandTimeline}
        >
          <IconHistory size={16} />
        </ActionIcon>
      )}
    </article>
  );
}
