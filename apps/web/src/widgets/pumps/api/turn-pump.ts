import { type TurnPumpResponse, TurnPumpResponseSchema } from '@forecourt/contract/pumps';
import { api, isApiError } from '../../../lib/api-client.ts';

export type PumpTarget = 'on' | 'off';

/** POST /api/pump/{id}/turn/on|off/. A 409 (already in that state, or pending) answers `{error, error_text}` too. */
export async function turnPump(pumpId: number, target: PumpTarget): Promise<TurnPumpResponse> {
  try {
    return await api.post(
      `/api/pump/${pumpId}/turn/${target}/`,
      {},
      {
        schema: TurnPumpResponseSchema,
        idempotent: true,
      },
    );
  } catch (error) {
    const body = isApiError(error) ? (error.body as Partial<TurnPumpResponse> | null) : null;
    if (body && body.error === true && typeof body.error_text === 'string') {
      return { error: true, error_text: body.error_text };
    }
    throw error;
  }
}
