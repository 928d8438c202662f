/**
 * Judges conformance results against the explicit lists of what needs the suite's own fixture
 * server. A scenario passes; passes in part (its only failing checks are listed fixture checks);
 * is skipped (the whole scenario is listed as fixture-dependent, and does fail); or fails. `wire-schema-valid` (every message our server sent matches the spec schema) is
 * never excused, not even inside a skipped scenario.
 */
import { NON_FAILING, type ScenarioResult } from './suite.js';

/** Scenario name -> why the whole scenario needs a fixture this server does not have. */
export type ScenarioSkips = Readonly<Record<string, string>>;
/** Scenario name -> check id -> why that one check needs a fixture. */
export type CheckSkips = Readonly<Record<string, Readonly<Record<string, string>>>>;

const ALWAYS_ENFORCED = new Set(['wire-schema-valid']);

export interface Verdict {
  scenario: string;
  outcome: 'pass' | 'partial' | 'skip' | 'fail';
  /** For partial and skip: the reasons; for fail: "check [status]: message" per unexcused failing check. */
  notes: string[];
  warnings: string[];
  /** A skip entry that excused nothing: the scenario or check passes now. */
  stale: boolean;
}

export function judge(results: readonly ScenarioResult[], scenarioSkips: ScenarioSkips, checkSkips: CheckSkips): Verdict[] {
  return results
    .map(({ scenario, checks }) => {
      const failing = checks.filter((c) => !NON_FAILING.has(c.status));
      const warnings = checks.filter((c) => c.status === 'WARNING').map((c) => `${c.id}: ${c.errorMessage ?? ''}`.trim());
      const wholeReason = scenarioSkips[scenario];
      const perCheck = checkSkips[scenario] ?? {};
      const excuse = (id: string) => (ALWAYS_ENFORCED.has(id) ? undefined : (wholeReason ?? perCheck[id]));
      const unexcused = failing.filter((c) => excuse(c.id) === undefined);
      const failingIds = new Set(failing.map((c) => c.id));
      const stale = wholeReason !== undefined ? failing.length === 0 : Object.keys(perCheck).some((id) => !failingIds.has(id));
      if (unexcused.length > 0) {
        return {
          scenario,
          outcome: 'fail' as const,
          notes: unexcused.map((c) => `${c.id} [${c.status}]: ${c.errorMessage ?? '(no message)'}`),
          warnings,
          stale,
        };
      }
      if (failing.length > 0) {
        if (wholeReason !== undefined) return { scenario, outcome: 'skip' as const, notes: [wholeReason], warnings, stale };
        return { scenario, outcome: 'partial' as const, notes: failing.map((c) => `${c.id} skipped: ${perCheck[c.id]}`), warnings, stale };
      }
      return { scenario, outcome: 'pass' as const, notes: [], warnings, stale };
    })
    .sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** One line per scenario, for the test log and for failure messages. */
export function summarize(title: string, verdicts: readonly Verdict[], ms: number): string {
  const count = (o: Verdict['outcome']) => verdicts.filter((v) => v.outcome === o).length;
  // Not phrased "N passed, N failed": CI reads such a line as the test runner's closing line.
  const lines = [
    `${title} — pass ${count('pass')}, pass in part ${count('partial')}, skip ${count('skip')} (fixture), fail ${count('fail')}; ${(ms / 1000).toFixed(1)} s`,
  ];
  for (const v of verdicts) {
    const mark = { pass: 'PASS', partial: 'PART', skip: 'SKIP', fail: 'FAIL' }[v.outcome];
    const staleNote = v.stale ? ' (skip entry is stale: that part passes now, drop it)' : '';
    lines.push(`  ${mark} ${v.scenario}${v.notes.length ? ` — ${v.notes.join('; ')}` : ''}${staleNote}`);
    for (const w of v.warnings) lines.push(`       warning ${w}`);
  }
  return lines.join('\n');
}
