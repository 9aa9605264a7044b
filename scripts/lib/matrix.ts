/**
 * The kill matrix from a run of playwright.mutation.config.ts: for each fault of the reference, did
 * a test fail the very rule it breaks (on the operation it breaks), or did the run's history
 * (checks/history.ts) of the fault's own clients show a violation of that rule? Kills are judged per
 * rule from the tests' rule checks (ledger/outcomes.ts) by ledger/kills.ts, and from the history's
 * violations: a test that failed some other rule does not kill. A test is the fault's that its
 * `fault` annotation names (fixtures/options.ts).
 */
import type { FaultInfo } from '../../reference/faults';
import { rules, ruleById, type Rule } from '../../ledger/rules';
import { grantedCapabilities, ruleApplies } from '../../ledger/capabilities';
import { OPERATIONS, type Operation } from '../../ledger/operations';
import { ruleIdsOf } from '../../ledger/tags';
import { outcomesOfReportTest, skipReasonOf } from '../../ledger/outcomes';
import { FAULT_ANNOTATION, faultOperation, killsFault, testOperations } from '../../ledger/kills';
import type { Profile } from '../../profile/profile';
import type { ReportTest } from '../../record/playwright-report';
import { suiteEnvironment } from '../../profile/run-settings';
import type { HistoryVerdict } from '../../checks/history';

/** Per project of the run, the rules its history shows violated, with the number of violations. */
export type HistoryViolations = ReadonlyMap<string, ReadonlyMap<string, number>>;

export function historyViolations(verdicts: readonly HistoryVerdict[]): HistoryViolations {
  // A project judged twice (a fault's first kill, then its other tests: scripts/mutation.ts) sums both.
  const byProject = new Map<string, Map<string, number>>();
  for (const v of verdicts) {
    const rules = byProject.get(v.project) ?? new Map<string, number>();
    for (const p of v.properties)
      for (const [rule, n] of Object.entries(p.violationsByRule)) rules.set(rule, (rules.get(rule) ?? 0) + n);
    byProject.set(v.project, rules);
  }
  return byProject;
}

export type Verdict = 'killed' | 'survived' | 'not applicable' | 'equivalent';

export interface FaultResult {
  name: string;
  rule: string;
  /** The one operation a per-operation fault breaks (`base@operation`). */
  operation?: Operation;
  ruleStatement: string;
  ruleLevel: Rule['level'] | 'unknown';
  description: string;
  verdict: Verdict;
  /** Why: "no test cites P8-15 on cancel", "3 tests cite P8-15, none failed it", "needs capability batchControl". */
  reason: string;
  /** Tests run against the fault, and those that killed it (titles without the project). */
  ran: number;
  failing: string[];
  /** Violations of the fault's rule the history of the fault's clients shows (0: none). */
  historyViolations: number;
  /** Summed time of the fault's tests (worker start-up not included). */
  testMs: number;
}

export interface Matrix {
  generatedAt: string;
  command: string;
  profile: string;
  scope: 'cited' | 'all';
  workers: number;
  /** 0: every test of a fault ran; n: a fault stopped after n kills. */
  maxKills: number;
  wallMs: number;
  complete: boolean;
  problems: string[];
  clean: { passed: number; failed: number; skipped: number; failures: string[]; historyViolations: number };
  summary: { faults: number; killed: number; survived: number; notApplicable: number; equivalent: number };
  faults: FaultResult[];
  /** Documented rules that no fault breaks: the matrix says nothing about them. */
  documentedRulesWithoutFault: { id: string; section: string; statement: string }[];
  /** Per documented rule and operation it governs: the verdicts of the faults that break it there. */
  grid: { rule: string; operations: Partial<Record<Operation, Verdict[]>> }[];
}

/** The fault a test of a batch ran against (its `fault` annotation), undefined for the clean project's. */
export function faultOfTest(t: ReportTest): string | undefined {
  return [...t.annotations, ...t.resultAnnotations].find((a) => a.type === FAULT_ANNOTATION)?.description;
}

export function buildMatrix(
  run: { exitCode: number; tests: ReportTest[]; errors: string[]; history?: HistoryViolations },
  faults: readonly FaultInfo[],
  profile: Profile,
  meta: Pick<Matrix, 'command' | 'scope' | 'workers' | 'maxKills' | 'wallMs'>,
): Matrix {
  const problems = [...run.errors];
  if (run.exitCode !== 0 && run.exitCode !== 1) problems.push(`playwright exited ${run.exitCode}`);
  const notRun = run.tests.filter((t) => t.resultStatus === undefined || t.resultStatus === 'interrupted');
  if (notRun.length)
    problems.push(
      `${notRun.length} test(s) did not finish (interrupted or not run), e.g. [${notRun[0]!.project}] ${notRun[0]!.title}`,
    );
  const cleanTests = run.tests.filter((t) => t.project === profile.name);
  const byFault = new Map<string, ReportTest[]>();
  for (const t of run.tests) {
    const fault = faultOfTest(t);
    if (fault !== undefined) byFault.set(fault, [...(byFault.get(fault) ?? []), t]);
  }
  if (!cleanTests.length) problems.push(`the clean project ${profile.name} ran no tests`);
  const clean = {
    passed: cleanTests.filter((t) => t.outcome === 'passed').length,
    failed: cleanTests.filter((t) => t.outcome === 'failed').length,
    skipped: cleanTests.filter((t) => t.outcome === 'skipped').length,
    failures: cleanTests.filter((t) => t.outcome === 'failed').map((t) => t.title),
    historyViolations: [...(run.history?.get(profile.name)?.values() ?? [])].reduce((a, b) => a + b, 0),
  };
  const granted = grantedCapabilities(profile);
  // Citations come from the clean project, which runs every test: the batch projects are filtered.
  const citing = (rule: Rule, op: Operation | undefined): ReportTest[] =>
    cleanTests.filter(
      (t) => ruleIdsOf(t.tags).includes(rule.id) && (op === undefined || testOperations(t.tags, rule.id).includes(op)),
    );

  const results: FaultResult[] = faults.map((fault) => {
    const rule = ruleById.get(fault.rule);
    const op = faultOperation(fault.name);
    const tests = byFault.get(fault.name) ?? [];
    const failing = tests
      .filter((t) => killsFault(fault, { tags: t.tags, outcomes: outcomesOfReportTest(t) }))
      .map((t) => t.title);
    const historyViolations = run.history?.get(`${profile.name}~${fault.name}`)?.get(fault.rule) ?? 0;
    const base = {
      name: fault.name,
      rule: fault.rule,
      ...(op ? { operation: op } : {}),
      ruleStatement: rule?.statement ?? '(not in the ledger)',
      ruleLevel: rule?.level ?? ('unknown' as const),
      description: fault.description,
      ran: tests.filter(
        (t) => t.resultStatus === 'passed' || t.resultStatus === 'failed' || t.resultStatus === 'timedOut',
      ).length,
      failing,
      historyViolations,
      testMs: tests.reduce((sum, t) => sum + t.durationMs, 0),
    };
    const capped = tests.filter(
      (t) => skipReasonOf(t.annotations)?.kind === 'kill-cap' || skipReasonOf(t.resultAnnotations)?.kind === 'kill-cap',
    ).length;
    if (failing.length || historyViolations)
      return {
        ...base,
        verdict: 'killed' as const,
        reason: [
          ...(failing.length
            ? [`${failing.length} test(s) failed ${fault.rule}${capped ? `, ${capped} more not run (kill cap)` : ''}`]
            : []),
          ...(historyViolations ? [`the history shows ${historyViolations} violation(s) of ${fault.rule}`] : []),
        ].join('; '),
      };
    if (!rule) return { ...base, verdict: 'survived' as const, reason: `rule ${fault.rule} is not in the ledger` };
    if (!ruleApplies(rule, profile, granted))
      return {
        ...base,
        verdict: 'not applicable' as const,
        reason: `${fault.rule} needs ${rule.needs}, which profile ${profile.name} does not grant`,
      };
    if (rule.impliedBy?.length) {
      return {
        ...base,
        verdict: 'equivalent' as const,
        reason: `${fault.rule} is implied by ${rule.impliedBy.join(' and ')}: a server breaking only ${fault.rule} answers like a conforming one (an equivalent mutant)`,
      };
    }
    const where = op ? ` on ${op}` : '';
    const cited = citing(rule, op);
    if (!cited.length) return { ...base, verdict: 'survived' as const, reason: `no test cites ${fault.rule}${where}` };
    if (!cited.some((t) => t.outcome !== 'skipped'))
      return {
        ...base,
        verdict: 'survived' as const,
        reason: `${cited.length} test(s) cite ${fault.rule}${where}, all skipped on ${profile.name}`,
      };
    return {
      ...base,
      verdict: 'survived' as const,
      reason: `${cited.length} test(s) cite ${fault.rule}${where}; none failed it with the fault on`,
    };
  });
  const missing = faults.filter(
    (f) => !byFault.has(f.name) && ruleById.has(f.rule) && citing(ruleById.get(f.rule)!, faultOperation(f.name)).length,
  );
  if (missing.length)
    problems.push(
      `${missing.length} fault(s) ran no test although tests cite their rule: ${missing
        .slice(0, 5)
        .map((f) => f.name)
        .join(', ')}`,
    );

  const broken = new Set(faults.map((f) => f.rule));
  const documentedRulesWithoutFault = rules
    .filter((r) => r.level === 'documented' && !r.retired && !broken.has(r.id))
    .map((r) => ({ id: r.id, section: r.section, statement: r.statement }));

  const grid = rules
    .filter((r) => r.level === 'documented' && !r.retired)
    .map((r) => {
      const operations: Partial<Record<Operation, Verdict[]>> = {};
      for (const op of OPERATIONS.filter((o) => r.operations.includes(o))) {
        operations[op] = results
          .filter(
            (f) =>
              f.rule === r.id &&
              (f.operation === op ||
                (f.operation === undefined && (r.operations.length === 1 || f.failing.length > 0))),
          )
          .map((f) => f.verdict);
      }
      return { rule: r.id, operations };
    });

  const order: Record<Verdict, number> = { survived: 0, 'not applicable': 1, equivalent: 2, killed: 3 };
  results.sort((a, b) => order[a.verdict] - order[b.verdict]);
  return {
    generatedAt: new Date().toISOString(),
    ...meta,
    profile: profile.name,
    complete: problems.length === 0,
    problems,
    clean,
    summary: {
      faults: results.length,
      killed: results.filter((r) => r.verdict === 'killed').length,
      survived: results.filter((r) => r.verdict === 'survived').length,
      notApplicable: results.filter((r) => r.verdict === 'not applicable').length,
      equivalent: results.filter((r) => r.verdict === 'equivalent').length,
    },
    faults: results,
    documentedRulesWithoutFault,
    grid,
  };
}

const useColor = suiteEnvironment().color ?? Boolean(process.stdout.isTTY);
const paint = (code: string) => (s: string) => (useColor ? `\u001b[${code}m${s}\u001b[0m` : s);
const red = paint('31;1');
const green = paint('32');
const dim = paint('2');
const yellow = paint('33');

export function formatMatrix(m: Matrix): string {
  const lines: string[] = [];
  const survivors = m.faults.filter((f) => f.verdict === 'survived');
  const na = m.faults.filter((f) => f.verdict === 'not applicable');
  const killed = m.faults.filter((f) => f.verdict === 'killed');
  lines.push('', `kill matrix: profile ${m.profile}, scope ${m.scope}, ${m.faults.length} fault(s)`);
  if (survivors.length) {
    lines.push('', red(`SURVIVED (${survivors.length}): no test failed the fault's rule with the fault on`));
    for (const f of survivors)
      lines.push(red(`  ✖ ${f.name.padEnd(44)} ${f.rule.padEnd(8)} ${f.reason}`) + dim(`  — ${f.ruleStatement}`));
  }
  if (na.length) {
    lines.push('', yellow(`NOT APPLICABLE (${na.length})`));
    for (const f of na) lines.push(`  - ${f.name.padEnd(44)} ${f.rule.padEnd(8)} ${f.reason}`);
  }
  if (killed.length) {
    lines.push('', green(`KILLED (${killed.length})`));
    for (const f of killed) {
      const titles = f.failing.slice(0, 2).map((t) => t.split(' › ').slice(-1)[0]);
      const history = f.historyViolations ? `history ${f.historyViolations}${titles.length ? ' | ' : ''}` : '';
      lines.push(
        `  ${green('✓')} ${f.name.padEnd(44)} ${f.rule.padEnd(8)} ${String(f.failing.length).padStart(3)}  ${history}${dim(titles.join(' | ') + (f.failing.length > 2 ? ' | …' : ''))}`,
      );
    }
  }
  lines.push('');
  if (m.clean.historyViolations)
    lines.push(
      red(
        `✖ the clean project ${m.profile}'s history shows ${m.clean.historyViolations} violation(s): the matrix means nothing until it has none`,
      ),
    );
  if (m.clean.failed) {
    lines.push(
      red(
        `✖ the clean project ${m.profile} has ${m.clean.failed} failure(s): the matrix means nothing until it passes`,
      ),
    );
    for (const t of m.clean.failures.slice(0, 10)) lines.push(red(`    ${t}`));
  } else
    lines.push(
      `clean project ${m.profile}: ${m.clean.passed} passed, ${m.clean.failed} failed, ${m.clean.skipped} skipped`,
    );
  for (const p of m.problems) lines.push(red(`✖ incomplete run: ${p}`));
  lines.push(`documented rules that no fault breaks: ${m.documentedRulesWithoutFault.length}`);
  lines.push(
    `${m.summary.killed} killed, ${m.summary.survived} survived, ${m.summary.notApplicable} not applicable, ${m.summary.equivalent} equivalent (of ${m.summary.faults}) — wall time ${(m.wallMs / 1000).toFixed(1)} s`,
  );
  if (survivors.length)
    lines.push(
      dim(`replay one fault: PAYMENTS_CLIENT_FAULTS=<fault> npx playwright test --project=${m.profile} --grep @<RULE>`),
    );
  return lines.join('\n');
}
