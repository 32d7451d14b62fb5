import type { FastifyInstance } from 'fastify';
import { adminRoutes } from './admin/index.ts';
import { agentRoutes } from './agents/index.ts';
import { alertRoutes } from './alerts/index.ts';
import { authRoutes } from './auth/index.ts';
import { companyDataRoutes } from './companies/dashboard-reads.ts';
import { companyRoutes } from './companies/index.ts';
import { configRoutes } from './config/index.ts';
import { deviceRoutes } from './device/index.ts';
import { liveRoutes } from './live/index.ts';
import { logRoutes } from './logs/index.ts';
import { pumpRoutes } from './pumps/index.ts';
import { siteDataRoutes } from './sites/dashboard-reads.ts';
import { siteRoutes } from './sites/index.ts';
import { targetRoutes } from './targets/index.ts';
import { terminalRoutes } from './terminals/index.ts';
import { ticketRoutes } from './tickets/index.ts';
import { transactionRoutes } from './transactions/index.ts';
import { userRoutes } from './users/index.ts';
import { notificationRoutes } from './users/notifications.ts';
import { weatherRoutes } from './weather/index.ts';

/** Every route plugin of the API, one line each. */
export async function routes(app: FastifyInstance) {
  void app;
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(notificationRoutes);
  await app.register(companyRoutes);
  await app.register(siteRoutes);
  await app.register(ticketRoutes);
  await app.register(weatherRoutes);
  await app.register(pumpRoutes);
  await app.register(terminalRoutes);
  await app.register(targetRoutes);
  await app.register(deviceRoutes);
  await app.register(alertRoutes);
  await app.register(agentRoutes);
  await app.register(companyDataRoutes);
  await app.register(siteDataRoutes);
  await app.register(transactionRoutes);
  await app.register(logRoutes);
  await app.register(configRoutes);
  await app.register(adminRoutes);
  await app.register(liveRoutes);
}
