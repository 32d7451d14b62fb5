import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser bundle, evaluated in the page (CDP evaluation is not subject to the page's CSP). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rules axe checks: WCAG 2.0–2.2 levels A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

export interface Violation {
  where: string;
  id: string;
  impact: string;
  help: string;
  /** The first offending elements (CSS selectors) with axe's summary of what is wrong. */
  targets: string[];
}

/** Runs axe on the page as it is now and returns its serious and critical violations, labelled `where`. */
export async function axeViolations(p: Page, where: string): Promise<Violation[]> {
  // Transitions (a modal fading in, a drawer sliding) end first: colours are read as they settle.
  await p.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number(a.effect?.getComputedTiming().endTime) !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const loaded = await p.evaluate(() => 'axe' in window);
  if (!loaded) await p.evaluate(AXE_SOURCE);
  const results = await p.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (...a: unknown[]) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: Array<{
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: unknown[]; failureSummary?: string }>;
      }>;
    }
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes
        .slice(0, 4)
        .map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`),
    }));
  }, TAGS);
  return results
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ where, ...v }));
}
