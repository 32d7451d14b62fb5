import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOME = path.join('repositories', 'unit-of-work.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' ? [] : sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** SQL that records an audit entry or a change (pruning old changes is the feed's, change-repository.ts). */
const RAW_WRITE = /\binsert\s+into\s+(audit_log|changes)\b/i;

describe('the write path (docs/decisions/0016-write-path.md)', () => {
  it('only repositories/unit-of-work.ts writes audit_log and changes', () => {
    const files = sources(SRC);
    expect(files.some((f) => f.endsWith(HOME))).toBe(true);
    const offenders = files.filter((f) => !f.endsWith(HOME) && RAW_WRITE.test(readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('only services open a unit of work through app.repos.work, so only they hold a tx to write with', () => {
    // A writing repository's writes take the `tx`; a route, plugin or lib module has none to pass.
    const opens = /\brepos\.work\.run\b|\bwork\.run\(/;
    const offenders = sources(SRC).filter(
      (f) => !f.startsWith(path.join(SRC, 'services') + path.sep) && opens.test(readFileSync(f, 'utf8')),
    );
    expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
    expect(opens.test(readFileSync(path.join(SRC, 'services', 'rule-admin.ts'), 'utf8'))).toBe(true);
  });

  it('the check finds such SQL where it is', () => {
    expect(RAW_WRITE.test(readFileSync(path.join(SRC, HOME), 'utf8'))).toBe(true);
  });
});
