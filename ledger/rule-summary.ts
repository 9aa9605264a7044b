/**
 * What a run says about each rule of the ledger, and the same at a glance: what a QA lead reads
 * first, in the terminal's summary and at the top of the report ("148 of 151 documented rules
 * assessed, 0 violated"), before any count of tests. Per-rule outcomes come from the tests' rule
 * checks (ledger/outcomes.ts): a failing check fails its own rule only, a test blocked by an
 * assumption leaves its rule "not assessed" with that assumption, and a rule the profile cannot
 * assess (a capability it does not grant) is not applicable. Certification reads the same results
 * (scripts/lib/certification.ts).
 */
import { grantedCapabilities, ruleApplies } from './capabilities';
import { describeSkip, type RuleOutcome, type SkipReason } from './outcomes';
import { ruleById, type Rule } from './rules';
import type { Profile } from '../profile/profile';

export type RuleStatus = 'passed' | 'failed' | 'inconclusive' | 'not assessed' | 'not applicable' | 'not cited';

export interface RuleResult {
  id: string;
  level: Rule['level'];
  statement: string;
  /** The profile can assess it (it needs nothing, or the profile grants what it needs). */
  applies: boolean;
  status: RuleStatus;
  tests: { passed: number; failed: number; skipped: number };
  failures?: { test: string; error: string }[];
  /** Why it was not assessed: the assumptions or capabilities that blocked it, and what to set. */
  blockedBy?: string[];
  /** The skip reasons behind blockedBy, for grouping them (rulesAtAGlance). */
  reasons?: SkipReason[];
}

/** One test's verdicts on its rules (ruleOutcomes), named as a reader finds the test. */
export interface TestOutcomes {
  test: string;
  outcomes: readonly RuleOutcome[];
}

const firstLine = (s: string): string =>
  s
    .split('\n')
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 300) ?? s;

/**
 * A rule passed when a test assessed it and none failed it; failed when any test failed it; not
 * assessed when every test touching it was blocked or skipped (with why); not applicable when the
 * profile cannot assess it (without a profile: when every test of it lacked a capability); not cited
 * when no test touches it.
 */
export function summariseRuleOutcomes(
  rules: readonly Rule[],
  tests: readonly TestOutcomes[],
  profile?: Profile,
): RuleResult[] {
  const granted = profile ? grantedCapabilities(profile) : undefined;
  const byRule = new Map<
    string,
    {
      passed: number;
      failed: number;
      skipped: number;
      failures: { test: string; error: string }[];
      reasons: (SkipReason | undefined)[];
    }
  >();
  for (const t of tests) {
    for (const outcome of t.outcomes) {
      const entry = byRule.get(outcome.rule) ?? { passed: 0, failed: 0, skipped: 0, failures: [], reasons: [] };
      byRule.set(outcome.rule, entry);
      if (outcome.status === 'passed') entry.passed++;
      else if (outcome.status === 'failed') {
        entry.failed++;
        entry.failures.push({ test: t.test, error: firstLine(outcome.why) });
      } else {
        entry.skipped++;
        entry.reasons.push(outcome.reason);
      }
    }
  }
  return rules
    .filter((r) => !r.retired)
    .map((rule): RuleResult => {
      const entry = byRule.get(rule.id);
      const applies = profile ? ruleApplies(rule, profile, granted) : true;
      const base = {
        id: rule.id,
        level: rule.level,
        statement: rule.statement,
        applies,
        tests: { passed: entry?.passed ?? 0, failed: entry?.failed ?? 0, skipped: entry?.skipped ?? 0 },
      };
      if (!entry) return { ...base, status: applies ? 'not cited' : 'not applicable' };
      if (entry.failed) return { ...base, status: 'failed', failures: entry.failures };
      const reasons = entry.reasons.filter((r): r is SkipReason => r !== undefined);
      // A test the infrastructure left without evidence may be the one that would have failed it:
      // the rule is not certified on the others' passes.
      const infrastructure = reasons.filter((r) => r.kind === 'inconclusive');
      if (infrastructure.length)
        return {
          ...base,
          status: 'inconclusive',
          blockedBy: [...new Set(infrastructure.map((r) => describeSkip(r)))],
          reasons: infrastructure,
        };
      if (entry.passed) return { ...base, status: 'passed' };
      const blockedBy = [...new Set(entry.reasons.map((r) => (r ? describeSkip(r) : 'skipped')))];
      if (!applies || entry.reasons.every((r) => r?.kind === 'capability'))
        return { ...base, status: 'not applicable', blockedBy, reasons };
      return { ...base, status: 'not assessed', blockedBy, reasons };
    });
}

// ── at a glance ──────────────────────────────────────────────────────────────────────────────────

/** Rules not assessed, one group per reason a reader acts on. */
export interface UnassessedGroup {
  /** What it takes: "need secondClient", "blocked by assumption ERR-01", "not run: …". */
  why: string;
  rules: string[];
}

export interface RulesGlance {
  /** Documented rules of the ledger (retired ones aside). */
  documented: number;
  /** Documented rules a test assessed: held or violated. */
  assessed: number;
  violated: string[];
  /** Documented rules not assessed, grouped by why. */
  unassessed: UnassessedGroup[];
  /** Assumption rules of the ledger, and those a test found not met (reported or enforced). */
  assumptions: number;
  assumptionsNotMet: string[];
}

/** Why a documented rule was not assessed, grouped: what would make it assessed. */
function unassessedWhy(result: RuleResult): string {
  if (result.status === 'not cited') return 'not run, no test of this run cites them';
  if (result.status === 'inconclusive') return 'inconclusive (infrastructure): run again';
  const reason = result.reasons?.[0];
  // The capability's name: npm run ledger -- --project <profile> says in words what grants it (whatToGrant).
  if (reason?.kind === 'capability') return `need ${reason.capability}`;
  if (reason?.kind === 'not-applicable') return 'not applicable to the profile’s reading';
  if (reason?.kind === 'blocked') return `blocked by ${reason.by}`;
  const needs = ruleById.get(result.id)?.needs;
  if (result.status === 'not applicable')
    return needs ? `need ${needs}` : 'need a capability the profile does not grant';
  return 'skipped';
}

/** The rules a run assessed, violated and could not assess (and why), out of the ledger's documented total. */
export function rulesAtAGlance(results: readonly RuleResult[], assumptionsNotMet: Iterable<string> = []): RulesGlance {
  const documented = results.filter((r) => r.level === 'documented');
  const assessed = documented.filter((r) => r.status === 'passed' || r.status === 'failed');
  const groups = new Map<string, string[]>();
  for (const r of documented.filter((d) => d.status !== 'passed' && d.status !== 'failed')) {
    const why = unassessedWhy(r);
    groups.set(why, [...(groups.get(why) ?? []), r.id]);
  }
  const assumptions = results.filter((r) => r.level === 'assumption');
  const notMet = new Set(assumptionsNotMet);
  for (const r of assumptions) if (r.status === 'failed') notMet.add(r.id);
  return {
    documented: documented.length,
    assessed: assessed.length,
    violated: assessed.filter((r) => r.status === 'failed').map((r) => r.id),
    unassessed: [...groups].map(([why, rules]) => ({ why, rules })).sort((a, b) => b.rules.length - a.rules.length),
    assumptions: assumptions.length,
    assumptionsNotMet: [...notMet].filter((id) => assumptions.some((a) => a.id === id)).sort(),
  };
}

/** "SCA-09, SCA-15 and 3 more": a list a line can hold. */
export function someIds(ids: readonly string[], shown = 6): string {
  if (ids.length <= shown) return ids.join(', ');
  return `${ids.slice(0, shown).join(', ')} and ${ids.length - shown} more`;
}

/** The glance as lines, most important first: what was assessed and violated, what was not and why, the assumptions. */
export function describeRulesGlance(glance: RulesGlance): string[] {
  const unassessed = glance.documented - glance.assessed;
  return [
    `${glance.assessed} of ${glance.documented} documented rules assessed, ${glance.violated.length} violated${glance.violated.length ? ` (${someIds(glance.violated)})` : ''}`,
    ...(unassessed
      ? [
          `${unassessed} not assessed: ${glance.unassessed.map((g) => `${g.rules.length} ${g.why} (${someIds(g.rules, 4)})`).join('; ')}`,
        ]
      : []),
    `${glance.assumptionsNotMet.length} of ${glance.assumptions} assumptions not met${glance.assumptionsNotMet.length ? ` (${someIds(glance.assumptionsNotMet)}): reported, see the profile` : ''}`,
  ];
}
