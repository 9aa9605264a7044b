/**
 * `npm run ledger [-- --profile local,local-lenient] [-- --strict]`: proves that the tests and the rule
 * ledger agree. It lists the tests (Playwright --list: no server is started, nothing is sent), then
 *   - fails when a test cites a rule ID the ledger does not have (a typo silently covers nothing);
 *   - prints every documented rule no test cites (the target is zero; --strict makes it a failure);
 *   - prints, per flow, how many rules are cited.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { rules, ruleById, type Flow, type Rule } from '../fixtures/ledger/rules';
import { flattenReport, reportErrors, type PlaywrightJsonReport } from '../helpers/playwright-report';

const RULE_TAG = /^@[A-Z0-9]+-\d+$/;

export interface ListedTest {
  /** "file › describe › title" (the same test listed by several projects appears once). */
  title: string;
  ruleIds: string[];
}

export interface FlowCoverage {
  flow: Flow;
  documented: { total: number; cited: number };
  assumption: { total: number; cited: number };
  tests: number;
}

export interface LedgerCheckResult {
  ok: boolean;
  tests: ListedTest[];
  /** Cited IDs missing from the ledger, with the tests citing them. */
  unknown: { id: string; tests: string[] }[];
  /** Retired rules still cited (a warning: the test checks something the ledger no longer claims). */
  retiredCited: { id: string; tests: string[] }[];
  uncitedDocumented: Rule[];
  uncitedAssumptions: Rule[];
  coverage: FlowCoverage[];
  /** rule ID → titles of the tests citing it. */
  citations: Map<string, string[]>;
}

/** Lists the tests of the given profiles without running them (no webServer, no global setup). */
export function listTests(profiles: string[]): ListedTest[] {
  const cli = path.join('node_modules', '@playwright', 'test', 'cli.js');
  const run = spawnSync(process.execPath, [cli, 'test', '--list', '--reporter=json'], {
    env: { ...process.env, PAYMENTS_PROFILES: profiles.join(','), PAYMENTS_ALLURE: '0', PAYMENTS_MUTATION_FAULTS: '' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const start = run.stdout.indexOf('{');
  if (run.status !== 0 || start < 0) {
    throw new Error(`playwright --list failed (exit ${run.status}):\n${(run.stderr || run.stdout).slice(-3000)}`);
  }
  const report = JSON.parse(run.stdout.slice(start)) as PlaywrightJsonReport;
  if (report.errors?.length) throw new Error(`playwright --list reported errors:\n${reportErrors(report).join('\n')}`);
  // Keyed by the title without the project: each project lists the same spec with the same tags.
  const tests = new Map<string, ListedTest>();
  for (const t of flattenReport(report)) {
    const ids = t.tags.map((x) => (x.startsWith('@') ? x : `@${x}`)).filter((x) => RULE_TAG.test(x)).map((x) => x.slice(1));
    tests.set(t.title, { title: t.title, ruleIds: [...new Set(ids)] });
  }
  return [...tests.values()];
}

/** Pure part: compares the listed tests with the ledger. */
export function checkLedger(tests: ListedTest[], options: { strict?: boolean; ledger?: readonly Rule[] } = {}): LedgerCheckResult {
  const ledger = options.ledger ?? rules;
  const byId = options.ledger ? new Map(ledger.map((r) => [r.id, r])) : ruleById;
  const citations = new Map<string, string[]>();
  for (const t of tests) for (const id of t.ruleIds) citations.set(id, [...(citations.get(id) ?? []), t.title]);

  const unknown = [...citations].filter(([id]) => !byId.has(id)).map(([id, ts]) => ({ id, tests: ts }));
  const retiredCited = [...citations].filter(([id]) => byId.get(id)?.retired).map(([id, ts]) => ({ id, tests: ts }));
  const live = ledger.filter((r) => !r.retired);
  const uncitedDocumented = live.filter((r) => r.level === 'documented' && !citations.has(r.id));
  const uncitedAssumptions = live.filter((r) => r.level === 'assumption' && !citations.has(r.id));

  const flows = [...new Set(live.map((r) => r.flow))];
  const coverage: FlowCoverage[] = flows.map((flow) => {
    const of = (level: Rule['level']) => live.filter((r) => r.flow === flow && r.level === level);
    const count = (list: Rule[]) => ({ total: list.length, cited: list.filter((r) => citations.has(r.id)).length });
    const flowIds = new Set(live.filter((r) => r.flow === flow).map((r) => r.id));
    return {
      flow,
      documented: count(of('documented')),
      assumption: count(of('assumption')),
      tests: tests.filter((t) => t.ruleIds.some((id) => flowIds.has(id))).length,
    };
  });

  const ok = unknown.length === 0 && !(options.strict && uncitedDocumented.length > 0);
  return { ok, tests, unknown, retiredCited, uncitedDocumented, uncitedAssumptions, coverage, citations };
}

export function formatLedgerCheck(result: LedgerCheckResult, options: { strict?: boolean } = {}): string {
  const lines: string[] = [];
  const untagged = result.tests.filter((t) => t.ruleIds.length === 0);
  lines.push(`ledger check: ${result.tests.length} tests, ${result.citations.size} distinct rule IDs cited`);
  if (result.unknown.length) {
    lines.push('', `✖ ${result.unknown.length} cited ID(s) are not in fixtures/ledger/rules.ts:`);
    for (const u of result.unknown) lines.push(`  ${u.id}  cited by ${u.tests.length} test(s), e.g. ${u.tests[0]}`);
  }
  for (const r of result.retiredCited) lines.push(`! ${r.id} is retired but still cited by ${r.tests.length} test(s), e.g. ${r.tests[0]}`);
  if (untagged.length) {
    lines.push('', `! ${untagged.length} test(s) cite no rule:`);
    for (const t of untagged.slice(0, 20)) lines.push(`  ${t.title}`);
    if (untagged.length > 20) lines.push(`  … and ${untagged.length - 20} more`);
  }
  lines.push('', 'coverage per flow (cited / total):');
  lines.push(`  ${'flow'.padEnd(13)} ${'documented'.padStart(10)} ${'assumption'.padStart(10)} ${'tests'.padStart(6)}`);
  for (const c of result.coverage) {
    lines.push(
      `  ${c.flow.padEnd(13)} ${`${c.documented.cited}/${c.documented.total}`.padStart(10)} ${`${c.assumption.cited}/${c.assumption.total}`.padStart(10)} ${String(c.tests).padStart(6)}`,
    );
  }
  const mark = options.strict ? '✖' : '!';
  lines.push('', `${result.uncitedDocumented.length ? mark : '✓'} documented rules no test cites: ${result.uncitedDocumented.length} (target 0)`);
  for (const r of result.uncitedDocumented) lines.push(`  ${r.id.padEnd(8)} ${r.section.padEnd(14)} ${r.statement}`);
  if (result.uncitedAssumptions.length) {
    lines.push('', `assumptions no test cites: ${result.uncitedAssumptions.length}`);
    for (const r of result.uncitedAssumptions) lines.push(`  ${r.id.padEnd(8)} ${r.section.padEnd(14)} ${r.statement}`);
  }
  lines.push('', result.ok ? '✓ ledger check passed' : '✖ ledger check failed');
  return lines.join('\n');
}

/** The whole check as npm-test calls it: list, compare, print; returns whether it passed. */
export function ledgerCheck(options: { profiles?: string[]; strict?: boolean; print?: boolean } = {}): LedgerCheckResult {
  const result = checkLedger(listTests(options.profiles?.length ? options.profiles : ['local']), options);
  if (options.print !== false) console.log(formatLedgerCheck(result, options));
  return result;
}

function parseArgs(argv: string[]): { profiles: string[]; strict: boolean } {
  const profiles: string[] = [];
  let strict = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--strict') strict = true;
    else if (arg === '--profile' || arg === '--project') profiles.push(...(argv[++i] ?? '').split(','));
    else if (arg.startsWith('--profile=') || arg.startsWith('--project=')) profiles.push(...arg.slice(arg.indexOf('=') + 1).split(','));
    else if (arg === '--help' || arg === '-h') {
      console.log('usage: npm run ledger [-- --profile local[,other]] [-- --strict]');
      process.exit(0);
    } else {
      console.error(`unknown argument ${arg} (usage: npm run ledger [-- --profile local[,other]] [-- --strict])`);
      process.exit(2);
    }
  }
  return { profiles: profiles.filter(Boolean), strict };
}

if (require.main === module) {
  try {
    const result = ledgerCheck(parseArgs(process.argv.slice(2)));
    process.exit(result.ok ? 0 : 1);
  } catch (error) {
    console.error(`✖ ${(error as Error).message}`);
    process.exit(2);
  }
}
