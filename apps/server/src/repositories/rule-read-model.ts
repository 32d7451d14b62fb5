import type { AlertRule } from '@forecourt/contract/alert-rules';
import type { MaintenanceWindow } from '@forecourt/contract/maintenance';
import type { WindowRecord } from './maintenance-repository.ts';
import type { RuleRecord } from './rule-repository.ts';

/** How rules and maintenance windows are shown: their records without the place copied from their target's scope. */
export const publicRule = ({ place: _, ...rule }: RuleRecord): AlertRule => rule;

export const publicWindow = ({ place: _, ...w }: WindowRecord): MaintenanceWindow => w;
