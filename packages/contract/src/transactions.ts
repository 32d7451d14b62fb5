import { z } from 'zod';

export const TransactionActivitySchema = z.object({
  transaction_in_1_hour: z.array(z.number().int()).length(12),
  transaction_0_in_1_hour: z.array(z.number().int()).length(12),
  transaction_lt1_in_1_hour: z.array(z.number().int()).length(12),
  buckets_1_hour: z.array(z.string()).length(12).describe('Start of each five-minute bucket, oldest first'),
  transaction_in_24_hours: z.array(z.number().int()).length(24),
  transaction_0_in_24_hours: z.array(z.number().int()).length(24),
  transaction_lt1_in_24_hours: z.array(z.number().int()).length(24),
  buckets_24_hours: z.array(z.string()).length(24).describe('Start of each hourly bucket, oldest first'),
});
export type TransactionActivity = z.infer<typeof TransactionActivitySchema>;
