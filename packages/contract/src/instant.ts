import { z } from 'zod';

/**
 * An ISO 8601 time with offset whose year is from `fromYear` to `toYear`; `message` answers any other value. Apart
 * from common.ts, which the console's first chunk carries: only the forms that check such times load it.
 */
export const isoInstant = (message: string, fromYear: number, toYear: number) =>
  z
    .string({ error: message })
    .pipe(z.iso.datetime({ offset: true, error: message }))
    .refine((v) => {
      const y = new Date(v).getUTCFullYear();
      return y >= fromYear && y <= toYear;
    }, message);
