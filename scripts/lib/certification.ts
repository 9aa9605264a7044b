/**
 * The certification verdict on what a run says about each rule of the ledger (ledger/rule-summary.ts):
 * a rule the profile cannot assess (a capability it does not grant) is not required.
 */
import { stripVTControlCharacters } from 'node:util';
import type { HistoryRecord } from '../../record/history';
import { outcomesOfReportTest } from '../../ledger/outcomes';
import { summariseRuleOutcomes, type RuleResult } from '../../ledger/rule-summary';
import type { Rule } from '../../ledger/rules';
import type { Profile } from '../../profile/profile';
import type { ReportTest } from '../../record/playwright-report';

export type { RuleResult, RuleStatus } from '../../ledger/rule-summary';

const stripAnsi = (s: string): string => stripVTControlCharacters(s);

/** The rule results of a run's Playwright JSON report (ledger/rule-summary.ts). */
export function summariseRules(rules: readonly Rule[], tests: readonly ReportTest[], profile: Profile): RuleResult[] {
  return summariseRuleOutcomes(
    rules,
    tests.map((t) => ({
      test: `${t.project} › ${t.title}`,
      outcomes: outcomesOfReportTest(t).map((o) => (o.status === 'failed' ? { ...o, why: stripAnsi(o.why) } : o)),
    })),
    profile,
  );
}

/**
 * The run's history as evidence too (runner/history.ts): a rule its history shows violated failed,
 * whatever the tests said; the violation is named as its failure.
 */
export function withHistory(results: readonly RuleResult[], history: HistoryRecord | undefined): RuleResult[] {
  const violations = new Map<string, { test: string; error: string }[]>();
  for (const project of history?.projects ?? [])
    for (const v of project.violations)
      violations.set(v.rule, [
        ...(violations.get(v.rule) ?? []),
        {
          test: `${project.project} › the run's history (${v.property})`,
          error: `${v.what}: expected ${v.expected}; received ${v.received}`,
        },
      ]);
  return results.map((r) => {
    const found = violations.get(r.id);
    return found ? { ...r, status: 'failed', failures: [...(r.failures ?? []), ...found] } : r;
  });
}

export interface Verdict {
  certified: boolean;
  /** Documented, applicable rules by status: what stands between this run and CERTIFIED. */
  failed: RuleResult[];
  notAssessed: RuleResult[];
  /** Rules one of whose tests the infrastructure left inconclusive (429/503… after retries): run again. */
  inconclusive: RuleResult[];
  notCited: RuleResult[];
  passed: number;
  required: number;
}

/** CERTIFIED only when every documented rule that applies to the environment was assessed and passed. */
export function verdictOf(results: readonly RuleResult[]): Verdict {
  const required = results.filter((r) => r.level === 'documented' && r.applies);
  const failed = required.filter((r) => r.status === 'failed');
  const notAssessed = required.filter((r) => r.status === 'not assessed');
  const inconclusive = required.filter((r) => r.status === 'inconclusive');
  const notCited = required.filter((r) => r.status === 'not cited');
  const passed = required.filter((r) => r.status === 'passed').length;
  return {
    certified: required.length > 0 && passed === required.length,
    failed,
    notAssessed,
    inconclusive,
    notCited,
    passed,
    required: required.length,
  };
}

// ── the profile as evidence ──────────────────────────────────────────────────────────────────────

/** An environment variable name, as profiles hold them: kept, it is what a reader needs to reproduce the run. */
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const JWT_LIKE = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*$/;
const SECRET_KEY_NAME = /secret|password|passwd|passphrase|token|private|credential|apikey|api_key/i;

/** Does a string value look like a secret rather than configuration? */
export function looksSecret(value: string, key = ''): boolean {
  if (ENV_NAME.test(value)) return false;
  if (value.includes('-----BEGIN') || JWT_LIKE.test(value)) return true;
  // Long unbroken base64/hex runs are keys or tokens; URLs, paths, sentences and codes are not.
  if (/^[A-Za-z0-9+/=_-]{32,}$/.test(value) && /[0-9]/.test(value) && /[a-zA-Z]/.test(value)) return true;
  // A secret-named field holding something that is not a path, a URL, a sentence or a plain word.
  return SECRET_KEY_NAME.test(key) && value.length >= 8 && !/[\s/]/.test(value) && !/^[a-z-]+$/.test(value);
}

/**
 * The profile for the bundle: profiles hold env var NAMES only, but a hand-edited profile may still
 * carry a value; anything secret-looking becomes "[redacted]" and URL credentials are dropped.
 */
export function sanitiseProfile(profile: unknown): unknown {
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === 'string') {
      if (looksSecret(value, key)) return '[redacted]';
      return value.replace(/^(https?:\/\/)[^/@\s]+@/i, '$1');
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(profile, '');
}
