import type { Pump } from '@forecourt/contract/pumps';
import { pumpClickAction } from '@forecourt/contract/rules';

export type PumpClick = { type: 'not_found' } | { type: 'ignore' } | { type: 'turn'; target: 'on' | 'off' };

/**
 * What a click on a pump does (docs/product.md#pump-state-machine): no pump selected → PUMP_NOT_FOUND; off → turn on; on → turn
 * off; pending, or a request already on its way → nothing.
 */
export function decidePumpClick(pump: Pump | undefined, busy = false): PumpClick {
  if (!pump) return { type: 'not_found' };
  if (busy) return { type: 'ignore' };
  const action = pumpClickAction(pump.status, pump.last_synapse_status);
  return action === null ? { type: 'ignore' } : { type: 'turn', target: action };
}
