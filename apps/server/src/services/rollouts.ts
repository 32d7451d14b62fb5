import {
  autoPauseReason,
  cumulativeWaveSizes,
  failureExceeds,
  inWindow,
  type Rollout,
  type RolloutCreate,
  type RolloutState,
  type RolloutStatus,
  type RolloutTerminal,
  SOFTWARE_TEXTS,
  waveOfRank,
} from '@forecourt/contract/software';
import type { Target } from '@forecourt/contract/targets';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeInput } from '../repositories/change-repository.ts';
import type { Repositories } from '../repositories/index.ts';
import type { Member, RolloutRecord } from '../repositories/rollout-repository.ts';
import { type Actor, auditOf, fleetAt, type Tx } from './actor.ts';
import { conflicting, DomainError, invalid, missing } from './domain-errors.ts';

export interface RolloutServiceOptions {
  repos: Repositories;
  log: FastifyBaseLogger;
  /** How often the leader looks at the open rollouts (ms, default 2000). */
  tickMs?: number;
  /** Before a wave's commands go out: the commands whose deadline passed are settled first (services/commands.ts). */
  sweepCommands?: (now: Date) => Promise<unknown>;
}

/**
 * Which of a target's terminals go in which wave: those already on `version` are skipped (wave 1), the rest are
 * spread over the cumulative percentages in terminal order.
 */
export function planMembers(
  members: readonly Member[],
  waves: readonly number[],
  version: string,
): Array<{
  terminalId: number;
  wave: number;
  status: RolloutStatus;
  fromVersion: string | null;
  detail: string | null;
}> {
  const rest = members.filter((m) => m.softwareVersion !== version);
  const sizes = cumulativeWaveSizes(rest.length, waves);
  const waveOf = new Map(rest.map((m, rank) => [m.id, waveOfRank(rank, sizes)]));
  return members.map((m) =>
    m.softwareVersion === version
      ? {
          terminalId: m.id,
          wave: 1,
          status: 'skipped',
          fromVersion: m.softwareVersion,
          detail: `Already on version ${version}`,
        }
      : {
          terminalId: m.id,
          wave: waveOf.get(m.id)!,
          status: 'pending',
          fromVersion: m.softwareVersion,
          detail: null,
        },
  );
}

/** What one tick did to one rollout. */
export interface TickResult {
  id: number;
  state: RolloutState;
  wave: number;
  moved: number;
  /** Install commands this step sent. */
  sent: number;
  /** The step's time, its commit included (ms). */
  ms: number;
}

/**
 * Software rollouts (docs/rollouts.md): the rules of a rollout's life. Created, paused, resumed and cancelled by
 * agents (audited, 'fleet' changes); moved on by the leader's tick, every few seconds and at once when an install
 * command, a terminal's version or its connectivity changes anywhere. All state is in PostgreSQL: each step of a
 * rollout is one unit of work that locks the rollout's row, so a tick on a new leader after a crash takes up
 * exactly where the last commit left it, and a wave's state change and its install commands commit together (never
 * sent twice).
 */
export function createRolloutService(opts: RolloutServiceOptions) {
  const { repos, log } = opts;
  const { rollouts, work } = repos;
  let ticking: Promise<TickResult[]> | null = null;
  let again = false;
  /** Whether any rollout was open at the last tick (events only trigger a tick then). */
  let open = true;
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;
  let running = false;
  let lastPrune = 0;

  /** The actor's rollout, locked when `tx` is given; 404 unknown, 403 another agent's. */
  async function own(actor: Actor, id: number, tx: Tx | null = null): Promise<RolloutRecord> {
    const r = await rollouts.byId(id, tx, tx !== null);
    if (!r) throw missing('rollout', id);
    if (r.agentId !== actor.agentId)
      throw new DomainError('forbidden', ['This rollout is outside your scope.']);
    return r;
  }

  const shown = async (tx: Tx, id: number) => (await rollouts.publicById(id, tx))!;

  /**
   * An administrator's change of a rollout's state: writes `fields`, the audit entry of `action` and the 'fleet'
   * change (with `more` changes); answers the rollout as it now is.
   */
  async function changeState(
    tx: Tx,
    actor: Actor,
    id: number,
    now: Date,
    fields: Parameters<typeof rollouts.update>[2],
    audit: { action: string; before: unknown; after: unknown },
    more: ChangeInput[] = [],
  ): Promise<Rollout> {
    await rollouts.update(tx, id, fields, now);
    const out = await shown(tx, id);
    await tx.audit(auditOf(actor, audit.action, 'rollout', id, audit.before, audit.after));
    await tx.changed([fleetAt(actor.agentId, {}), ...more]);
    return out;
  }

  /** One rollout, one unit of work: settle its terminals, pause, start the next wave or finish, send. */
  async function step(id: number, now: Date): Promise<TickResult | null> {
    const t0 = performance.now();
    const out = await stepWork(id, now);
    if (!out) return null;
    const ms = Math.round((performance.now() - t0) * 10) / 10;
    // Sending is what a wave costs: said in the log; the other steps that moved terminals at debug (bench:rollout
    // reads both).
    if (out.sent > 0)
      log.info({ rollout: id, wave: out.wave, sent: out.sent, ms }, 'rollout install commands sent');
    else if (out.moved > 0) log.debug({ rollout: id, wave: out.wave, moved: out.moved, ms }, 'rollout step');
    return { ...out, ms };
  }

  async function stepWork(id: number, now: Date): Promise<Omit<TickResult, 'ms'> | null> {
    return work.run(async (tx) => {
      const r = await rollouts.byId(id, tx, true);
      if (!r) return null;
      const pkg = await repos.software.byId(r.packageId, tx);
      const version = pkg?.version ?? r.package?.version ?? '';
      const changes: ChangeInput[] = [];
      const settled = await rollouts.settle(tx, r, version, now);
      changes.push(...settled.changes);
      let moved = settled.count;
      let sentCount = 0;
      let state = r.state;
      let wave = r.wave;
      const rolloutChanged = () => changes.push(fleetAt(r.agentId, {}));
      if (state === 'running') {
        const counts = await rollouts.waveCounts(tx, r.id, wave);
        if (
          failureExceeds(counts.failed, counts.done, r.maxFailurePct) &&
          counts.failed > r.acceptedFailures
        ) {
          state = 'paused';
          const reason = autoPauseReason(wave, counts.failed, counts.done, r.maxFailurePct);
          await rollouts.update(tx, r.id, { state, pausedReason: reason }, now);
          await tx.audit({
            userId: null,
            username: 'system',
            agentId: r.agentId,
            action: 'pause',
            entity: 'rollout',
            entityId: r.id,
            before: { state: 'running' },
            after: { state, paused_reason: reason },
            at: now,
          });
          rolloutChanged();
        }
      }
      if (state === 'running') {
        const waited = now.getTime() - r.waveStartedAt.getTime() >= r.waveWaitS * 1000;
        if ((await rollouts.unfinished(tx, r.id, wave)) === 0) {
          if (wave < r.waves.length && waited) {
            wave += 1;
            await rollouts.update(tx, r.id, { wave, waveStartedAt: now, acceptedFailures: 0 }, now);
            // The target is evaluated again: terminals that joined it since go in this wave.
            await join(tx, r, version, wave, now);
            rolloutChanged();
          } else if (wave >= r.waves.length && (await rollouts.unfinished(tx, r.id)) === 0) {
            state = 'completed';
            await rollouts.update(
              tx,
              r.id,
              { state, finishedAt: now, trackedUntil: new Date(now.getTime() + 2 * r.waveWaitS * 1000) },
              now,
            );
            rolloutChanged();
          }
        }
      }
      if (state === 'running' && pkg) {
        const due = await rollouts.due(tx, r, wave, now);
        const inside = due.filter((d) => inWindow(d.localMinutes, r.window)).map((d) => d.id);
        const sent = await rollouts.send(tx, { ...r, wave }, pkg, inside, now);
        changes.push(...sent.changes);
        moved += sent.count;
        sentCount = sent.count;
      }
      if (moved > 0) await rollouts.update(tx, r.id, {}, now);
      if (changes.length) await tx.changed(changes);
      return { id: r.id, state, wave, moved, sent: sentCount };
    });
  }

  /** Terminals that joined the target since the rollout began, into `wave`. */
  async function join(tx: Tx, r: RolloutRecord, version: string, wave: number, now: Date) {
    const known = await rollouts.memberIds(tx, r.id);
    const fresh = (await rollouts.members(tx, r.target)).filter((m) => !known.has(m.id));
    if (!fresh.length) return;
    await rollouts.addTerminals(
      tx,
      r.id,
      fresh.map((m) =>
        m.softwareVersion === version
          ? {
              terminalId: m.id,
              wave,
              status: 'skipped' as const,
              fromVersion: m.softwareVersion,
              detail: `Already on version ${version}`,
            }
          : {
              terminalId: m.id,
              wave,
              status: 'pending' as const,
              fromVersion: m.softwareVersion,
              detail: null,
            },
      ),
      now,
    );
  }

  const service = {
    async create(actor: Actor, body: RolloutCreate & { target: Target }, now = new Date()): Promise<Rollout> {
      const rollout = await work.run(async (tx) => {
        const pkg = await repos.software.byId(body.package_id, tx);
        if (!pkg || pkg.agentId !== actor.agentId)
          throw invalid(`package_id: no package with id ${body.package_id}`);
        const id = await rollouts.insert(tx, {
          agentId: actor.agentId,
          packageId: pkg.id,
          target: body.target,
          waves: body.waves,
          waveWaitS: body.wave_wait_s,
          window: body.window,
          maxFailurePct: body.max_failure_pct,
          createdBy: actor.username,
          createdById: actor.userId,
          now,
        });
        const members = await rollouts.members(tx, body.target);
        await rollouts.addTerminals(tx, id, planMembers(members, body.waves, pkg.version), now);
        const out = await shown(tx, id);
        await tx.audit(auditOf(actor, 'create', 'rollout', id, null, out));
        await tx.changed([fleetAt(actor.agentId, {})]);
        return out;
      });
      open = true;
      service.poke();
      return rollout;
    },

    async list(
      actor: Actor,
      page: { limit: number; before?: string; state?: RolloutState },
    ): Promise<Rollout[]> {
      return rollouts.list(actor.agentId, page);
    },

    async get(actor: Actor, id: number): Promise<Rollout> {
      await own(actor, id);
      return (await rollouts.publicById(id))!;
    },

    async terminals(
      actor: Actor,
      id: number,
      page: { limit: number; before?: string; status?: RolloutStatus[] },
    ): Promise<RolloutTerminal[]> {
      await own(actor, id);
      return rollouts.terminals(id, page);
    },

    /** Stops sending (what is under way goes on and is followed); pausing a paused rollout changes nothing. */
    async pause(actor: Actor, id: number, now = new Date()): Promise<Rollout> {
      return work.run(async (tx) => {
        const r = await own(actor, id, tx);
        if (r.state === 'paused') return shown(tx, id);
        if (r.state !== 'running') throw conflicting(SOFTWARE_TEXTS.notPausable(r.state));
        const reason = `Paused by ${actor.username}`;
        const audit = {
          action: 'pause',
          before: { state: r.state },
          after: { state: 'paused', paused_reason: reason },
        };
        return changeState(tx, actor, id, now, { state: 'paused', pausedReason: reason }, audit);
      });
    },

    /**
     * Sends again (409 for a cancelled or completed rollout). The failures of the current wave so far are accepted:
     * only a further failure pauses it again.
     */
    async resume(actor: Actor, id: number, now = new Date()): Promise<Rollout> {
      const out = await work.run(async (tx) => {
        const r = await own(actor, id, tx);
        if (r.state === 'cancelled' || r.state === 'completed')
          throw conflicting(SOFTWARE_TEXTS.notResumable(r.state));
        if (r.state === 'running') return shown(tx, id);
        const counts = await rollouts.waveCounts(tx, id, r.wave);
        const fields = { state: 'running' as const, pausedReason: null, acceptedFailures: counts.failed };
        const audit = {
          action: 'resume',
          before: { state: r.state, paused_reason: r.pausedReason },
          after: { state: 'running' },
        };
        return changeState(tx, actor, id, now, fields, audit);
      });
      open = true;
      service.poke();
      return out;
    },

    /**
     * Ends the rollout: nothing more is sent, install commands not yet fetched are withdrawn; installs under way are
     * still followed to done or failed. 409 for a completed one; cancelling again changes nothing.
     */
    async cancel(actor: Actor, id: number, now = new Date()): Promise<Rollout> {
      const out = await work.run(async (tx) => {
        const r = await own(actor, id, tx);
        if (r.state === 'cancelled') return shown(tx, id);
        if (r.state === 'completed') throw conflicting(SOFTWARE_TEXTS.notCancellable(r.state));
        const withdrawn = await rollouts.withdraw(tx, id, now);
        const fields = {
          state: 'cancelled' as const,
          finishedAt: now,
          trackedUntil: new Date(now.getTime() + 2 * r.waveWaitS * 1000),
        };
        const audit = { action: 'cancel', before: { state: r.state }, after: { state: 'cancelled' } };
        return changeState(tx, actor, id, now, fields, audit, withdrawn);
      });
      return out;
    },

    /**
     * One pass over every followed rollout as of `now` (injectable for tests): what the leader runs every few
     * seconds. A failure of one rollout is logged and the others go on.
     */
    async tick(now: Date = new Date()): Promise<TickResult[]> {
      while (ticking) await ticking.catch(() => {});
      const run = (async () => {
        await opts.sweepCommands?.(now);
        const ids = await rollouts.followed(now);
        open = ids.length > 0;
        const results: TickResult[] = [];
        for (const id of ids) {
          try {
            const r = await step(id, now);
            if (r) results.push(r);
          } catch (err) {
            log.error({ err, rollout: id }, 'rollout step failed');
          }
        }
        if (now.getTime() - lastPrune >= 60_000) {
          lastPrune = now.getTime();
          // Uploads a node died in the middle of (services/software.ts): their pieces go after 6 hours.
          await repos.software.pruneStale(new Date(now.getTime() - 6 * 3_600_000)).catch(() => 0);
        }
        return results;
      })();
      ticking = run;
      try {
        return await run;
      } finally {
        ticking = null;
      }
    },

    /**
     * Something a rollout may be waiting for happened (an install command changed, a terminal reported a version or
     * changed connectivity): on the leader, the next tick comes at once (coalesced over 200 ms).
     */
    poke() {
      if (!running || !open || soon) return;
      soon = setTimeout(() => {
        soon = undefined;
        void runTick();
      }, 200);
      soon.unref();
    },

    /** The leader's job: a tick every `tickMs` (default 2 s) and on `poke`; answers its stop function. */
    start(): () => Promise<void> {
      running = true;
      open = true;
      timer = setInterval(() => void runTick(), opts.tickMs ?? 2_000);
      timer.unref();
      void runTick();
      return async () => {
        running = false;
        clearInterval(timer);
        clearTimeout(soon);
        soon = undefined;
        await ticking?.catch(() => {});
      };
    },
  };

  async function runTick() {
    if (ticking) {
      again = true;
      return;
    }
    try {
      await service.tick();
    } catch (err) {
      log.error({ err }, 'rollout tick failed');
    }
    if (again && running) {
      again = false;
      void runTick();
    }
  }

  return service;
}
export type RolloutService = ReturnType<typeof createRolloutService>;
