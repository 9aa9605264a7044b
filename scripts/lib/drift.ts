/**
 * Nightly's second verdict, beside conformance: whether the target still answers as the profile
 * assumes where the spec says "not shown". An assumption that changed is drift, reported in a section
 * of its own and by its own exit status, never as a conformance failure:
 *   - discovery (npm run discover) observed an answer the profile does not admit;
 *   - a test failed, but only on assumption rules (an enforce-mode profile): the target answers
 *     otherwise than the profile expects, and nothing documented broke.
 */
import { ruleById } from '../../ledger/rules';
import { formatDrift, type FieldDiff } from '../../engines/discovery/diff';

/** Exit status of a nightly run whose conformance is fine but whose assumptions drifted (0 OK, 1 conformance, 2 refused). */
export const DRIFT_EXIT_CODE = 3;

export interface DriftReport {
  /** Profile fields whose observed answers the profile no longer admits. */
  fields: FieldDiff[];
  /** Failed tests whose failed rules are all assumptions. */
  assumptionFailures: { test: string; rules: string[] }[];
  /** Discovery: ran, was not asked for, or could not run (why). */
  discovery: { ran: true } | { ran: false; why: string; error?: boolean };
}

/** A failed test fails only assumptions when every rule it failed is of level assumption. */
export function failsOnlyAssumptions(failedRules: readonly string[] | undefined): boolean {
  return Boolean(failedRules?.length) && failedRules!.every((id) => ruleById.get(id)?.level === 'assumption');
}

/** Regressions split: conformance failures stay; failures of assumptions alone move to the drift report. */
export function splitRegressions<T extends { test: string }>(
  regressions: readonly T[],
  failedRulesOf: (test: string) => readonly string[] | undefined,
): { conformance: T[]; assumptions: { test: string; rules: string[] }[] } {
  const conformance: T[] = [];
  const assumptions: { test: string; rules: string[] }[] = [];
  for (const r of regressions) {
    const rules = failedRulesOf(r.test);
    if (failsOnlyAssumptions(rules)) assumptions.push({ test: r.test, rules: [...rules!] });
    else conformance.push(r);
  }
  return { conformance, assumptions };
}

export const drifted = (report: DriftReport): boolean =>
  report.fields.length > 0 ||
  report.assumptionFailures.length > 0 ||
  (!report.discovery.ran && report.discovery.error === true);

/** 0 all well; 1 conformance failed (whatever the assumptions); 3 conformance fine, assumptions drifted. */
export function nightlyExitCode(conformanceOk: boolean, report: DriftReport): number {
  if (!conformanceOk) return 1;
  return drifted(report) ? DRIFT_EXIT_CODE : 0;
}

/** The drift section of nightly's output. */
export function renderDrift(project: string, report: DriftReport): string[] {
  const lines: string[] = ['', `Assumptions of ${project} (drift is not a conformance failure):`];
  if (!report.discovery.ran)
    lines.push(
      `${report.discovery.error ? 'DRIFT UNCHECKED  ' : 'not checked      '}discovery ${report.discovery.error ? 'could not run' : 'not run'}: ${report.discovery.why}`,
    );
  lines.push(...formatDrift(report.fields));
  for (const f of report.assumptionFailures)
    lines.push(
      `ASSUMPTION       ${f.test} (${f.rules.join(', ')}): the target answers otherwise than the profile expects`,
    );
  if (!drifted(report))
    lines.push(
      report.discovery.ran
        ? 'no drift: every answer discovery observed is one the profile admits'
        : 'no assumption failed',
    );
  lines.push(
    `assumptions ${project}: ${drifted(report) ? 'DRIFT' : 'OK'} — ${report.fields.length} changed, ${report.assumptionFailures.length} tests failed on assumptions alone${drifted(report) ? ` (exit ${DRIFT_EXIT_CODE} when conformance is OK)` : ''}`,
  );
  return lines;
}
