import type { Repositories } from '../repositories/index.ts';
import { publicRule } from '../repositories/rule-read-model.ts';
import type { RuleActor, RuleFields, RuleRecord } from '../repositories/rule-repository.ts';
import { placeWrites } from './place-writes.ts';

const record = placeWrites<RuleRecord>('alert_rule', publicRule);

/**
 * Writing alert rules (docs/rules-and-maintenance.md): each write is one unit of work with its audit entry (under
 * the agent of the rule's place) and a 'fleet' change of its place, and of its old place when it moves.
 */
export function createRuleAdminService(repos: Pick<Repositories, 'rules' | 'work'>) {
  const { rules, work } = repos;
  return {
    create(actor: RuleActor, f: RuleFields): Promise<RuleRecord> {
      return work.run(async (tx) => {
        const rule = await rules.insert(tx, actor, f);
        await record(tx, actor, 'create', { before: null, after: rule });
        return rule;
      });
    },

    /**
     * Writes a rule's new fields. A rule that stops being enabled, or whose condition or target changes, clears its
     * active alerts and starts again from the next reading.
     */
    update(actor: RuleActor, before: RuleRecord, f: RuleFields, now: Date): Promise<RuleRecord> {
      return work.run(async (tx) => {
        const rule = await rules.update(tx, before.id, f);
        const rearmed =
          !rule.enabled ||
          JSON.stringify([before.target, before.signal, before.op, before.threshold, before.for_s]) !==
            JSON.stringify([rule.target, rule.signal, rule.op, rule.threshold, rule.for_s]) ||
          before.clear_threshold !== rule.clear_threshold;
        const changes = rearmed ? await rules.clearAlerts(tx, rule.id, now) : [];
        await record(tx, actor, 'update', { before, after: rule, changes });
        return rule;
      });
    },

    /** Deletes a rule: it leaves every list, its active alerts clear (the logs keep them). */
    remove(actor: RuleActor, before: RuleRecord, now: Date): Promise<void> {
      return work.run(async (tx) => {
        await rules.markDeleted(tx, before.id, now);
        const changes = await rules.clearAlerts(tx, before.id, now);
        await record(tx, actor, 'delete', { before, after: null, changes });
      });
    },
  };
}
