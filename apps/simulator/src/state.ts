import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What the simulator remembers between runs: its device tokens, and the terminals it let go for good. */
export interface FleetState {
  /** Device token per terminal id, as provisioned by this simulator. */
  tokens: Record<string, string>;
  /** Terminals whose token someone else rotated: a real device holds them; never provisioned again. */
  released: number[];
}

export const emptyState = (): FleetState => ({ tokens: {}, released: [] });

/** Reads the state file; a missing or unreadable file is an empty state. */
export function loadState(file: string | null): FleetState {
  if (!file) return emptyState();
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<FleetState>;
    const tokens = Object.fromEntries(
      Object.entries(raw.tokens ?? {}).filter(([id, t]) => /^\d+$/.test(id) && typeof t === 'string'),
    );
    const released = (raw.released ?? []).filter((id): id is number => Number.isInteger(id));
    return { tokens, released };
  } catch {
    return emptyState();
  }
}

/** Writes the state file atomically, readable by its owner only (it holds device secrets). */
export function saveState(file: string | null, state: FleetState): void {
  if (!file) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}
