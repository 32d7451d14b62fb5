import { RebootAcceptedSchema, type RebootType } from '@forecourt/contract/terminals';
import { api } from '../../../lib/api-client.ts';

/** POST /api/terminal/{id}/reboot/ with {reboot_type}; answers 202 with the queued command. */
export function rebootTerminal(terminalId: number, rebootType: RebootType) {
  return api.post(
    `/api/terminal/${terminalId}/reboot/`,
    { reboot_type: rebootType },
    { schema: RebootAcceptedSchema, idempotent: true },
  );
}
