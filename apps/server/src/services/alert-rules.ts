import { meets, type RuleState, ruleAlertText, stepRule } from '@forecourt/contract/alert-rules';
import type { DeviceTransaction, TelemetryPoint } from '@forecourt/contract/device';
import { TELEMETRY_SIGNALS, type TelemetrySignal } from '@forecourt/contract/telemetry-history';
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories } from '../repositories/index.ts';
import type {
  AlertPlace,
  RuleRepository,
  RuleWithState,
  RuleWrites,
} from '../repositories/rule-repository.ts';
import type { MaintenanceService } from './maintenance-windows.ts';
import { serialWorker } from './repeat.ts';

export interface AlertRulesOptions {
  repo: RuleRepository;
  /** The units of work the evaluation, the sales roll-up and the sweep write through. */
  work: Pick<Repositories['work'], 'run'>;
  /** Releases the alerts of ended maintenance windows (services/maintenance-windows.ts). */
  maintenance: Pick<MaintenanceService, 'release'>;
  log: FastifyBaseLogger;
  /** How often the leader sweeps (ms): `for_s` conditions, `no_sales`, ended maintenance windows. */
  sweepMs?: number;
  /**
   * The database is this process's alone (PGlite): every rule state is written here, so the states not at rest are
   * remembered per terminal between readings instead of asked for with every group commit.
   */
  ownsDatabase?: boolean;
}

type Reading = { value: number; at: number };

/** One terminal's stored telemetry request of a group commit. */
export interface TelemetryBatchWrite {
  terminal: AlertPlace;
  points: readonly TelemetryPoint[];
  now: Date;
}

/** How many terminals' rule lists (and, owning the database, rule states) a node keeps before it starts again. */
const RULE_CACHE_TERMINALS = 20_000;
/** A rule's state on a terminal where it is neither pending nor firing (its last reading's time is not needed). */
const AT_REST: RuleState = { pendingSince: null, firing: false, lastAt: null };

const sameState = (a: RuleState, b: RuleState) => a.pendingSince === b.pendingSince && a.firing === b.firing;

type Extremes = { min: number; max: number };

/** The lowest and the highest reading of each signal. */
function extremesOf(readings: Map<TelemetrySignal, Reading[]>): Map<TelemetrySignal, Extremes> {
  const out = new Map<TelemetrySignal, Extremes>();
  for (const [signal, list] of readings) {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const r of list) {
      if (r.value < min) min = r.value;
      if (r.value > max) max = r.value;
    }
    out.set(signal, { min, max });
  }
  return out;
}

/** Whether some reading meets the rule's threshold: its lowest for `<`/`<=`, its highest for `>`/`>=`. */
const mayMeet = (rule: RuleWithState, e: Extremes | undefined) =>
  e !== undefined && meets(rule.op, rule.op.startsWith('<') ? e.min : e.max, rule.threshold);

/**
 * What a terminal's readings do to its rules (docs/rules-and-maintenance.md): each rule's readings of its signal,
 * oldest first, through `stepRule`. Answers the states that changed (a reading that only moves the clock changes
 * nothing stored) and the alerts to raise and clear, in order.
 */
export function decideRules(rules: RuleWithState[], readings: Map<TelemetrySignal, Reading[]>): RuleWrites {
  const out: RuleWrites = { states: [], actions: [] };
  for (const rule of rules) {
    let state = rule.state;
    let value: number | null = null;
    for (const r of readings.get(rule.signal) ?? []) {
      const next = stepRule(rule, state, r);
      if (!sameState(next.state, state)) value = r.value;
      state = next.state;
      if (next.step.kind === 'fire')
        out.actions.push({
          kind: 'fire',
          ruleId: rule.id,
          severity: rule.severity,
          text: ruleAlertText(rule, next.step.value),
          at: new Date(next.step.at),
        });
      else if (next.step.kind === 'clear')
        out.actions.push({ kind: 'clear', ruleId: rule.id, at: new Date(next.step.at) });
    }
    if (!sameState(state, rule.state)) out.states.push({ ruleId: rule.id, state, value });
  }
  return out;
}

/**
 * The rule states not at rest of terminals, remembered between group commits when this process owns the database
 * (every rule state is then written here). A terminal's entry is dropped after each write that may change its
 * states (its locked evaluation), all of them after the sweep fires and on every 'fleet' change (a rule written,
 * disabled or deleted); an answer read while an entry was dropped is used once, not kept. So what it answers of a
 * telemetry rule is never older than what reading the table at the same moment would answer (the states of
 * `no_sales` rules, which sales and the sweep write, are among them but never read from here).
 */
export function busyStatesInMemory(repo: Pick<RuleRepository, 'busyStates'>) {
  let known = new Map<number, Map<number, RuleState>>();
  /** Drops of each terminal's entry since the last `forget()` of all; and of all. */
  let versions = new Map<number, number>();
  let epoch = 0;
  return {
    /** The states not at rest of these terminals, by terminal and rule (as `busyStates` answers them). */
    async of(ids: readonly number[]): Promise<Map<number, Map<number, RuleState>>> {
      const out = new Map<number, Map<number, RuleState>>();
      const missing: number[] = [];
      for (const id of ids) {
        const states = known.get(id);
        if (states) out.set(id, states);
        else missing.push(id);
      }
      if (!missing.length) return out;
      const asked = { epoch, versions: missing.map((id) => versions.get(id) ?? 0) };
      const read = await repo.busyStates(missing);
      const keep = asked.epoch === epoch;
      if (keep && known.size + missing.length > RULE_CACHE_TERMINALS) known = new Map();
      missing.forEach((id, i) => {
        const states = read.get(id) ?? new Map<number, RuleState>();
        out.set(id, states);
        if (keep && (versions.get(id) ?? 0) === asked.versions[i]) known.set(id, states);
      });
      return out;
    },
    /** Drops what is known of these terminals, or of all. */
    forget(ids?: readonly number[]) {
      if (!ids) {
        epoch++;
        known = new Map();
        versions = new Map();
        return;
      }
      for (const id of ids) {
        known.delete(id);
        versions.set(id, (versions.get(id) ?? 0) + 1);
      }
    },
  };
}

/**
 * Alert rules at work: telemetry evaluated as it arrives on whichever node receives it, sales rolled up as they
 * arrive, and the leader's sweep (conditions that have held `for_s` without a new reading, `no_sales`, alerts whose
 * maintenance window has ended). Rule state lives in PostgreSQL, locked per rule and terminal while it changes.
 */
export function createAlertRules(opts: AlertRulesOptions) {
  const { repo, work, log } = opts;
  /** The signals of the enabled telemetry rules: dropped on every fleet change (a rule written on any node). */
  let signals: Promise<Set<string>> | null = null;
  /**
   * The enabled telemetry rules reaching each terminal seen since the last fleet change (a rule written, a
   * terminal's tags or place changed): a reading then costs one indexed look at its rules' states that are not at
   * rest, instead of resolving every rule's target again. Dropped whole when it grows past `RULE_CACHE_TERMINALS`.
   */
  let reaching = new Map<number, Promise<RuleWithState[]>>();
  const busy = opts.ownsDatabase ? busyStatesInMemory(repo) : null;
  const sweeper = serialWorker(
    async (now) => {
      const fired = await work.run((tx) => repo.fireDue(tx, now));
      if (fired) busy?.forget();
      const noSales = await work.run(async (tx) => {
        const swept = await repo.sweepNoSales(tx, now);
        await tx.changed(swept.changes);
        return swept.fired;
      });
      const released = await opts.maintenance.release(now);
      return { fired, noSales, released };
    },
    { now: () => new Date(), log, failed: 'alert rule sweep failed' },
  );

  /** The enabled telemetry rules reaching a terminal, without state (cached until the next fleet change). */
  function rulesOf(terminalId: number): Promise<RuleWithState[]> {
    let p = reaching.get(terminalId);
    if (!p) {
      if (reaching.size >= RULE_CACHE_TERMINALS) reaching = new Map();
      const cache = reaching;
      p = repo.rulesReaching(terminalId);
      cache.set(terminalId, p);
      p.catch(() => {
        if (cache.get(terminalId) === p) cache.delete(terminalId);
      });
    }
    return p;
  }

  /** A write's readings of the signals some enabled rule watches, by signal, oldest first. */
  function readingsOf(w: TelemetryBatchWrite, active: Set<string>): Map<TelemetrySignal, Reading[]> {
    const readings = new Map<TelemetrySignal, Reading[]>();
    for (const s of TELEMETRY_SIGNALS) {
      if (!active.has(s)) continue;
      const list: Reading[] = [];
      for (const point of w.points) {
        const v = point[s];
        if (v !== undefined) list.push({ value: v, at: point.at ? Date.parse(point.at) : w.now.getTime() });
      }
      if (list.length)
        readings.set(
          s,
          list.sort((a, b) => a.at - b.at),
        );
    }
    return readings;
  }

  /** Evaluates one terminal's readings under lock, in a unit of work of its own. Never throws. */
  async function evaluate(
    t: AlertPlace,
    rules: RuleWithState[],
    readings: Map<TelemetrySignal, Reading[]>,
  ): Promise<void> {
    try {
      await work.run((tx) =>
        repo.evaluate(
          tx,
          t,
          rules.map((r) => r.id),
          [...readings.keys()],
          (locked) => decideRules(locked, readings),
        ),
      );
    } catch (err) {
      log.warn({ err, terminal: t.id }, 'alert rules not evaluated for these readings');
    } finally {
      busy?.forget([t.id]);
    }
  }

  const service = {
    /** Forgets what this node knows of the rules (the change feed calls it on 'fleet' changes). */
    forget() {
      signals = null;
      reaching = new Map();
      busy?.forget();
    },

    /**
     * Evaluates the freshly stored readings of a group commit, one write per terminal, as one batch: the states
     * of every terminal's rules that are not at rest in one query, the decision in memory (`decideRules`), and
     * only the terminals whose rules change state (or fire, or clear) go on to a locked evaluation, each in a unit
     * of work of its own. Never throws: the readings are stored, and a failure here is logged (a `for_s`
     * condition is picked up again by the sweep, the others by the next reading).
     */
    async telemetry(writes: readonly TelemetryBatchWrite[]): Promise<void> {
      try {
        const p = signals ?? repo.enabledSignals();
        signals = p;
        const active = await p.catch((err) => {
          if (signals === p) signals = null;
          throw err;
        });
        if (!active.size) return;
        const found: Array<{
          t: AlertPlace;
          readings: Map<TelemetrySignal, Reading[]>;
          rules: Promise<RuleWithState[]>;
        }> = [];
        for (const w of writes) {
          const readings = readingsOf(w, active);
          if (readings.size) found.push({ t: w.terminal, readings, rules: rulesOf(w.terminal.id) });
        }
        if (!found.length) return;
        const watched: Array<{
          t: AlertPlace;
          readings: Map<TelemetrySignal, Reading[]>;
          rules: RuleWithState[];
        }> = [];
        for (const f of found) {
          const rules = (await f.rules).filter((r) => f.readings.has(r.signal));
          if (rules.length) watched.push({ t: f.t, readings: f.readings, rules });
        }
        if (!watched.length) return;
        const ids = watched.map((w) => w.t.id);
        const states = await (busy ? busy.of(ids) : repo.busyStates(ids));
        for (const w of watched) {
          const busyOfTerminal = states.get(w.t.id);
          const extremes = extremesOf(w.readings);
          // A rule at rest stays at rest unless some reading meets its threshold: only the others are stepped.
          const moving: RuleWithState[] = [];
          for (const r of w.rules) {
            const state = busyOfTerminal?.get(r.id);
            if (state) moving.push({ ...r, state });
            else if (mayMeet(r, extremes.get(r.signal))) moving.push({ ...r, state: AT_REST });
          }
          if (!moving.length) continue;
          const first = decideRules(moving, w.readings);
          if (first.states.length || first.actions.length) await evaluate(w.t, w.rules, w.readings);
        }
      } catch (err) {
        log.warn(
          { err, terminals: writes.map((w) => w.terminal.id) },
          'alert rules not evaluated for these readings',
        );
      }
    },

    /** Rolls up a terminal's freshly stored transactions; a sale clears its `no_sales` alerts. Never throws. */
    async transactions(t: AlertPlace, txs: readonly DeviceTransaction[], now: Date): Promise<void> {
      try {
        if (!txs.length) return;
        const ats = txs.map((x) => new Date(x.at));
        await work.run(async (tx) => {
          const { changes } = await repo.recordSales(tx, t, ats, now);
          await tx.changed(changes);
        });
      } catch (err) {
        log.warn({ err, terminal: t.id }, 'sales not rolled up for these transactions');
      }
    },

    /** One sweep as of `now` (after the one under way, never two at once): answers what it did. */
    sweep(now: Date = new Date()) {
      return sweeper.tick(now);
    },

    /** The leader's job: sweeps every `sweepMs` (default 10 s), skipping a beat while one runs; answers its stop function. */
    start(): () => Promise<void> {
      return sweeper.start(opts.sweepMs ?? 10_000);
    },
  };
  return service;
}
export type AlertRules = ReturnType<typeof createAlertRules>;
