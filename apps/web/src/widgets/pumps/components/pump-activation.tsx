import { isFinalCommandState } from '@forecourt/contract/commands';
import { logPath } from '@forecourt/contract/log-paths';
import type { Pump } from '@forecourt/contract/pumps';
import { Anchor } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { commandStateKey } from '../../../components/command-state.tsx';
import {
  CommandTimelineDrawer,
  type CommandTimelineTarget,
} from '../../../components/command-timeline/command-timeline.tsx';
import { WidgetCard, widgetQueryState } from '../../../components/widget-card.tsx';
import { commandQueries } from '../../../lib/api/commands.ts';
import { errorText } from '../../../lib/api-client.ts';
import type { SiteScope } from '../../../lib/scope.ts';
import { toast } from '../../../lib/toast.ts';
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

interface Watched {
  commandId: number;
  pumpId: number;
  pumpNo: number;
}

/**
 * Follows one command until the device answers: then the pumps are re-read at once (the confirmation sets
 * last_synapse_status, which ends the pending state), and a failure, timeout or expiry is said out loud.
 */
function CommandWatcher({
  watched,
  scope,
  onDone,
}: {
  watched: Watched;
  scope: SiteScope;
  onDone: (id: number) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data } = useQuery(commandQueries.detail(watched.commandId));
  const reported = useRef(false);
  useEffect(() => {
    if (!data || !isFinalCommandState(data.state) || reported.current) return;
    reported.current = true;
    void client.invalidateQueries({ queryKey: pumpQueries.site(scope).queryKey });
    void client.invalidateQueries({ queryKey: commandQueries.owner('pump', watched.pumpId) });
    if (data.state !== 'confirmed') {
      toast.error(
        [
          t('PUMP_NOT_SWITCHED', { pump_no: watched.pumpNo, state: t(commandStateKey(data.state)) }),
          data.detail,
        ]
          .filter(Boolean)
          .join(': '),
        t('ERROR_'),
      );
    }
    onDone(watched.commandId);
  }, [data, client, scope, watched, onDone, t]);
  return null;
}

/** One tile per pump of the site, switched on and off by the state machine of docs/product.md#pump-state-machine. */
export function PumpActivation({ scope }: PumpActivationProps) {
  const siteId = scope.id;
  const { t } = useTranslation();
  const client = useQueryClient();
  const options = pumpQueries.site(scope);
  const query = useQuery({ ...options, enabled: siteId > 0 });
  const [busy, setBusy] = useState<Set<number>>(() => new Set());
  const [watching, setWatching] = useState<Watched[]>([]);
  const [history, setHistory] = useState<CommandTimelineTarget | null>(null);

  const mutation = useMutation({
    mutationFn: ({ pump, target }: { pump: Pump; target: PumpTarget }) => turnPump(pump.id, target),
    onMutate: ({ pump }) => setBusy((s) => new Set(s).add(pump.id)),
    onSettled: (_data, _error, { pump }) =>
      setBusy((s) => {
        const next = new Set(s);
        next.delete(pump.id);
        return next;
      }),
    onSuccess: async (result, { pump, target }) => {
      if (result.error) {
        toast.error(result.error_text, t('ERROR_'));
        void client.invalidateQueries({ queryKey: options.queryKey });
        return;
      }
      toast.info(t(target === 'on' ? 'PUMP_TURNING_ON' : 'PUMP_TURNING_OFF', { pump_no: pump.pump_no }));
      // Pending until the device confirms: the requested status now, the confirmed one as it was.
      await client.cancelQueries({ queryKey: options.queryKey });
      const updated: Pump = result.pump ?? { ...pump, status: target === 'on' ? 1 : 0 };
      client.setQueryData(options.queryKey, (list) =>
        list?.map((p) => (p.id === pump.id ? { ...p, ...updated } : p)),
      );
      void client.invalidateQueries({ queryKey: commandQueries.owner('pump', pump.id) });
      const commandId = result.command_id;
      if (commandId) setWatching((w) => [...w, { commandId, pumpId: pump.id, pumpNo: pump.pump_no }]);
    },
    onError: (error) => toast.error(errorText(error), t('ERROR_')),
  });

  // The latest polled state decides, not the one the tile was drawn with.
  const onToggle = (clicked: Pump) => {
    const pump = query.data?.find((p) => p.id === clicked.id);
    const decision = decidePumpClick(pump, busy.has(clicked.id));
    if (decision.type === 'not_found') toast.error(t('PUMP_NOT_FOUND'));
    else if (decision.type === 'turn' && pump) mutation.mutate({ pump, target: decision.target });
  };

  const onWatchDone = (commandId: number) => setWatching((w) => w.filter((x) => x.commandId !== commandId));
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
            busy={busy.has(pump.id)}
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
      {watching.map((w) => (
        <CommandWatcher key={w.commandId} watched={w} scope={scope} onDone={onWatchDone} />
      ))}
      <CommandTimelineDrawer target={history} onClose={() => setHistory(null)} />
    </WidgetCard>
  );
}
