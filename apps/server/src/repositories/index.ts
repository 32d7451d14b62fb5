import { ADMIN_ENTITY_NAMES } from '@forecourt/contract/admin-entities';
import type { Env } from '../config/env.ts';
import type { Database } from '../db/client.ts';
import { adminEntityRepositories } from './admin-entity-repository.ts';
import { createAlertRepository } from './alert-repository.ts';
import { createApiKeyRepository } from './api-key-repository.ts';
import { createAuditRepository } from './audit-repository.ts';
import { type ChangeInput, createChangeRepository } from './change-repository.ts';
import { createCommandRepository } from './command-repository.ts';
import { createCompanyRepository } from './company-repository.ts';
import { createConnectivityRepository } from './connectivity-repository.ts';
import { createContactPointRepository } from './contact-point-repository.ts';
import { createDeliveryRepository } from './delivery-repository.ts';
import { createDeviceRepository } from './device-repository.ts';
import { createFleetReadRepository } from './fleet-read-repository.ts';
import { createIdempotencyRepository } from './idempotency-repository.ts';
import { createLogRepository } from './log-repository.ts';
import { createMaintenanceRepository } from './maintenance-repository.ts';
import { createMetricsRepository } from './metrics-repository.ts';
import { createNotificationPolicyRepository } from './notification-policy-repository.ts';
import { createNotificationRepository } from './notification-repository.ts';
import { createOrgRepository } from './org-repository.ts';
import { createPlaceHistoryRepository } from './place-history-repository.ts';
import { createPrincipalRepository } from './principal-repository.ts';
import { createPumpRepository } from './pump-repository.ts';
import { createReportReadModel } from './report-read-model.ts';
import { createReportScheduleRepository } from './report-schedule-repository.ts';
import { createRevokedRepository } from './revoked-repository.ts';
import { createRolloutRepository } from './rollout-repository.ts';
import { createRulePreviewRepository } from './rule-preview-repository.ts';
import { createRuleRepository } from './rule-repository.ts';
import { createLeaderLockRepository, createSharedSettingsRepository } from './settings-repository.ts';
import { createSiteRepository } from './site-repository.ts';
import { createSoftwareRepository } from './software-repository.ts';
import { createTargetRepository } from './target-repository.ts';
import { createTelemetryHistoryRepository } from './telemetry-history-repository.ts';
import { createTerminalRepository } from './terminal-repository.ts';
import { createTicketRepository } from './ticket-repository.ts';
import {
  type Settle,
  settleWritesThrough,
  type Tx,
  unitOfWork,
  unitOfWorkStatement,
  type WriteStatement,
} from './unit-of-work.ts';
import { createUserAdminRepository } from './user-admin-repository.ts';
import { createUserRepository } from './user-repository.ts';

/**
 * Every repository, created once per app. Add new ones here; an administered entity without a repository of its
 * own here gets the generic one (admin-entity-repository.ts) under its name.
 */
export function createRepositories(database: Database, _config: Env) {
  const repositories = {
    changes: createChangeRepository(database),
    commands: createCommandRepository(database),
    connectivity: createConnectivityRepository(database),
    devices: createDeviceRepository(database),
    pumps: createPumpRepository(database),
    org: createOrgRepository(database),
    principals: createPrincipalRepository(database),
    revoked: createRevokedRepository(database),
    users: createUserRepository(database),
    userAdmin: createUserAdminRepository(database),
    companies: createCompanyRepository(database),
    sites: createSiteRepository(database),
    terminals: createTerminalRepository(database),
    tickets: createTicketRepository(database),
    alerts: createAlertRepository(database),
    fleetReads: createFleetReadRepository(database),
    logs: createLogRepository(database),
    idempotency: createIdempotencyRepository(database),
    audit: createAuditRepository(database),
    placeHistory: createPlaceHistoryRepository(),
    notifications: createNotificationRepository(database),
    settings: createSharedSettingsRepository(database),
    leaderLock: createLeaderLockRepository(database),
    metrics: createMetricsRepository(database),
    telemetryHistory: createTelemetryHistoryRepository(database),
    targets: createTargetRepository(database),
    rules: createRuleRepository(database),
    rulePreview: createRulePreviewRepository(database),
    maintenance: createMaintenanceRepository(database),
    apiKeys: createApiKeyRepository(database),
    contactPoints: createContactPointRepository(database),
    notificationPolicies: createNotificationPolicyRepository(database),
    deliveries: createDeliveryRepository(database),
    reports: createReportReadModel(database),
    reportSchedules: createReportScheduleRepository(database),
    software: createSoftwareRepository(database),
    rollouts: createRolloutRepository(database),
    /** Units of work on this database (unit-of-work.ts): what a service writes through, and when it returns. */
    work: {
      run: <R>(fn: (tx: Tx) => Promise<R>) => unitOfWork(database, fn),
      /** A unit of work that is one statement: a write's CTEs and its changes, one round trip (unit-of-work.ts). */
      statement: (write: WriteStatement, changes: readonly ChangeInput[]) =>
        unitOfWorkStatement(database, write, changes),
      /** After its commit, a write waits for `settle` (this node's feed passing its last change). */
      settleThrough: (settle: Settle) => settleWritesThrough(database, settle),
    },
  };
  return { ...repositories, ...adminEntityRepositories(database, ADMIN_ENTITY_NAMES, repositories) };
}
export type Repositories = ReturnType<typeof createRepositories>;
