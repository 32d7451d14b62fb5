// What the pump tiles do besides drawing: the toasts of a click and the reason a pump was not switched, read from
// its command timeline. None of it is needed to show the tiles: the widget fetches this module once the first view
// has been drawn, or at once on a click, so a site dashboard's first view loads fewer files.
import { isFinalCommandState } from '@forecourt/contract/commands';
import type { Pump } from '@forecourt/contract/pumps';
import type { QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { commandStateKey } from '../../components/command-state.tsx';
import { commandQueries } from '../../lib/api/commands.ts';
import { toast } from '../../lib/toast.ts';

export { commandQueries, toast };

/** Says out loud that `pump` left pending without reaching the requested state, with the device's reason. */
export async function sayNotSwitched(client: QueryClient, t: TFunction, pump: Pump): Promise<void> {
  const commands = await client
    .fetchQuery({ ...commandQueries.timeline('pump', pump.id), staleTime: 0 })
    .catch(() => []);
  const last = commands.find((c) => isFinalCommandState(c.state));
  const state = last && last.state !== 'confirmed' ? last.state : 'failed';
  toast.error(
    [t('PUMP_NOT_SWITCHED', { pump_no: pump.pump_no, state: t(commandStateKey(state)) }), last?.detail]
      .filter(Boolean)
      .join(': '),
    t('ERROR_'),
  );
}
