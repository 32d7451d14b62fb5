import { logPath } from '@forecourt/contract/log-paths';
import type { Pump } from '@forecourt/contract/pumps';
import { type PumpState, pumpState } from '@forecourt/contract/rules';
import { Anchor } from '@mantine/core';
import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CommandTimelineDrawer,
  type CommandTimelineTarget,
} from '../../../components/command-timeline/command-timeline-drawer.tsx';
import { Link } from '../../../components/link.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { errorText } from '../../../lib/api-client.ts';
import type { SiteScope } from '../../../lib/scope.ts';
import { whenFirstViewDrawn } from '../../../lib/when-first-view-drawn.ts';
import { pumpQueries } from '../api/get-pumps.ts';
import { type PumpTarget, turnPump } from '../api/turn-pump.ts';
import { decidePumpClick } from '../pump-click.ts';
import { PumpTile } from './pump-tile.tsx';

export interface PumpActivationProps {
  /** The site whose pumps are shown (an id > 0). */
  scope: SiteScope;
}

/** Link of the pump activation log (a hash route). */
export const pumpActivationLogPath = (siteId: number) => logPath('pump-activation', 'site', siteId);

/** The toasts and the command timeline's reads (../pump-actions.ts): not part of the tiles' first view. */
const actions = () => import('../pump-actions.ts');

const TURN_PUMP = 'turn-pump';

/**
 * Says out loud when a pump this screen showed pending leaves it without reaching the requested state:
 * the device failed the command, or it timed out or expired (the server then returns the request to the
 * confirmed state). Everything comes from the server's pumps, re-read when a 'pump' change arrives on the
 * stream; the reason is read once from the pump's command timeline.
 */
function useUnswitchedPumps(pumps: readonly Pump[] | undefined) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const seen = useRef(new Map<number, PumpState>());
  useEffect(() => {
    if (!pumps) return;
    const before = seen.current;
    seen.current = new Map(pumps.map((p) => [p.id, pumpState(p.status, p.last_synapse_status)]));
    for (const pump of pumps) {
      const was = before.get(pump.id);
      const now = seen.current.get(pump.id);
      const unswitched = (was === 'pending_on' && now === 'off') || (was === 'pending_off' && now === 'on');
      if (!unswitched) continue;
      void actions().then((a) => a.sayNotSwitched(client, t, pump));
    }
  }, [pumps, client, t]);
}

/**
 * One tile per pump of the site, switched on and off by the state machine of docs/product.md#pump-state-machine.
 * Pending is the server's word (requested `status` vs confirmed `last_synapse_status`): it ends when the
 * device's confirmation arrives on the stream and the pumps are re-read. While a turn request is on its
 * way, clicks on that pump do nothing.
 */
export function PumpActivation({ scope }: PumpActivationProps) {
  const siteId = scope.id;
  const { t } = useTranslation();
  const client = useQueryClient();
  const options = pumpQueries.site(scope);
  const query = useQuery({ ...options, enabled: siteId > 0 });
  const [history, setHistory] = useState<CommandTimelineTarget | null>(null);
  useUnswitchedPumps(query.data);
  // Fetched once the first view is drawn, so that a click's toast does not wait for the network.
  useEffect(() => whenFirstViewDrawn(() => void actions()), []);

  const mutationKey = [TURN_PUMP, siteId] as const;
  const sending = useMutationState({
    filters: { mutationKey, status: 'pending' },
    select: (m) => (m.state.variables as { pump: Pump } | undefined)?.pump.id,
  });
  const mutation = useMutation({
    mutationKey,
    mutationFn: ({ pump, target }: { pump: Pump; target: PumpTarget }) => turnPump(pump.id, target),
    // The toasts' code comes while the request is on its way.
    onMutate: () => void actions(),
    onSuccess: async (result, { pump, target }) => {
      const { toast, commandQueries } = await actions();
      if (result.error) {
        toast.error(result.error_text, t('ERROR_'));
        void client.invalidateQueries({ queryKey: options.queryKey });
        return;
      }
      toast.info(t(target === 'on' ? 'PUMP_TURNING_ON' : 'PUMP_TURNING_OFF', { pump_no: pump.pump_no }));
      // The server's answer carries the pump as it now stands (requested, not yet confirmed): shown at
      // once. Without it, the pumps are read again. Either way the stream brings the confirmation.
      const updated = result.pump;
      if (updated) {
        await client.cancelQueries({ queryKey: options.queryKey });
        client.setQueryData(options.queryKey, (list) =>
          list?.map((p) => (p.id === updated.id ? { ...p, ...updated } : p)),
        );
      } else {
        void client.invalidateQueries({ queryKey: options.queryKey });
      }
      void client.invalidateQueries({ queryKey: commandQueries.owner('pump', pump.id) });
    },
    onError: (error) => void actions().then((a) => a.toast.error(errorText(error), t('ERROR_'))),
  });

  // The latest state read from the server decides, not the one the tile was drawn with.
  const onToggle = (clicked: Pump) => {
    const pump = query.data?.find((p) => p.id === clicked.id);
    const decision = decidePumpClick(pump, sending.includes(clicked.id));
    if (decision.type === 'not_found') void actions().then((a) => a.toast.error(t('PUMP_NOT_FOUND')));
    else if (decision.type === 'turn' && pump) mutation.mutate({ pump, target: decision.target });
  };

  const pumps = query.data ?? [];

  return (
    <WidgetCard
      title={t('PUMP_ACTIVATION')}
      info={{ title: t('PUMP_ACTIVATION'), description: t('PUMP_ACTIVATION_INFO') }}
      {...widgetQueryState(query)}
      loading={siteId > 0 && query.isPending}
      empty={siteId <= 0 || (query.isSuccess && pumps.length === 0)}
      emptyMessage={t('NO_PUMPS_DETECTED')}
      data-testid="pump-activation"
      footer={
        siteId > 0 ? (
          <Anchor component={Link} to={pumpActivationLogPath(siteId)} size="sm">
            {t('PUMP_ACTIVATION_LOG')}
          </Anchor>
        ) : undefined
      }
    >
      <div className="fc-pump-grid">
        {pumps.map((pump) => (
          <PumpTile
            key={pump.id}
            pump={pump}
            busy={sending.includes(pump.id)}
            onToggle={onToggle}
            onHistory={(p) =>
              setHistory({
                owner: 'pump',
                id: p.id,
                label: `${t('PUMP_NO', { pump_no: p.pump_no })} – ${p.site}`,
              })
            }
          />
        ))}
      </div>
      <CommandTimelineDrawer target={history} onClose={() => setHistory(null)} />
    </WidgetCard>
  );
}
