/**
 * `npm run mutation [-- --profile local-strict-422] [-- --only fault1,fault2] [-- --scope all] [-- --workers 3]`
 *
 * The kill matrix: proves that each ledger rule the reference can break is caught by the suite. Every
 * fault of reference/faults.ts breaks exactly one rule. ONE Playwright run against ONE reference
 * server: the clean project (`local`) plus one project per fault (`local~<fault>`) whose clients are
 * registered with that fault only (see playwright.config.ts mutationProjects and fixtures/target.ts).
 *
 * scope "cited" (default): a fault project runs only the tests that cite the fault's rule, so a kill
 * is attributed to the tests that claim the rule and the matrix stays fast. scope "all": every test
 * runs in every fault project (slow; finds kills by tests that forgot to cite the rule).
 *
 * Verdicts: killed (at least one test failed), survived (none failed: a missing or weak test),
 * not applicable (the rule needs a capability the profile does not grant). Exit 1 when a fault
 * survives, the clean project fails, or the run did not complete.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { faultCatalogue, type FaultInfo } from '../reference/faults';
import { rules, ruleById, type Capability, type Rule } from '../fixtures/ledger/rules';
import { loadProfile, type Profile } from '../helpers/profile';
import { runPlaywright } from './run-playwright';
import { flattenReport, readReportFile, reportErrors } from '../helpers/playwright-report';
import { renderMutationPage } from './mutation-page';

export type Verdict = 'killed' | 'survived' | 'not applicable' | 'equivalent';

export interface FaultResult {
  name: string;
  rule: string;
  ruleStatement: string;
  ruleLevel: Rule['level'] | 'unknown';
  description: string;
  verdict: Verdict;
  /** Why: "no test cites P8-15", "3 tests cite P8-15, all passed", "needs capability batchControl". */
  reason: string;
  /** Tests run in the fault's project, and those that failed (titles without the project). */
  ran: number;
  failing: string[];
  /** Summed test time of the fault's project (worker start-up not included). */
  testMs: number;
}

export interface Matrix {
  generatedAt: string;
  command: string;
  profile: string;
  scope: 'cited' | 'all';
  workers: number;
  /** 0: every test of a fault project ran; n: a fault project stopped after n failures. */
  maxKills: number;
  wallMs: number;
  complete: boolean;
  problems: string[];
  clean: { passed: number; failed: number; skipped: number; failures: string[] };
  summary: { faults: number; killed: number; survived: number; notApplicable: number; equivalent: number };
  faults: FaultResult[];
  /** Documented rules that no fault breaks: the matrix says nothing about them. */
  documentedRulesWithoutFault: { id: string; section: string; statement: string }[];
}

interface Options {
  profile: string;
  only: string[];
  scope: 'cited' | 'all';
  workers: number;
  /** Stop a fault's tests after this many failures (0 = run them all). */
  maxKills: number;
  outDir: string;
}

function usage(): string {
  return 'usage: npm run mutation [-- --profile <name>] [-- --only fault1,fault2] [-- --scope cited|all] [-- --workers N] [-- --max-kills N (0 = all)]';
}

function parseArgs(argv: string[]): Options {
  const options: Options = { profile: 'local', only: [], scope: 'cited', workers: Math.min(3, Math.max(2, os.cpus().length)), maxKills: 3, outDir: 'reports/mutation' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => inline ?? argv[++i] ?? '';
    if (flag === '--profile' || flag === '--project') options.profile = value();
    else if (flag === '--only') options.only.push(...value().split(',').map((s) => s.trim()).filter(Boolean));
    else if (flag === '--scope') {
      const scope = value();
      if (scope !== 'cited' && scope !== 'all') throw new Error(`--scope must be cited or all\n${usage()}`);
      options.scope = scope;
    } else if (flag === '--workers') options.workers = Number(value()) || options.workers;
    else if (flag === '--max-kills') options.maxKills = Math.max(0, Number(value()) || 0);
    else if (flag === '--out') options.outDir = value();
    else if (flag === '--help' || flag === '-h') {
      console.log(usage());
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}\n${usage()}`);
  }
  return options;
}

/** Same grant as fixtures/test.ts grantedCapabilities: a reference target always has a second client. */
function granted(profile: Profile): Set<Capability> {
  const out = new Set<Capability>();
  for (const [name, on] of Object.entries(profile.capabilities)) if (on) out.add(name as Capability);
  if (profile.target.kind === 'reference' || profile.target.clients.secondary) out.add('secondClient');
  return out;
}

function selectFaults(catalogue: readonly FaultInfo[], only: string[]): FaultInfo[] {
  if (!only.length) return [...catalogue];
  const unknown = only.filter((name) => !catalogue.some((f) => f.name === name));
  if (unknown.length) throw new Error(`unknown fault(s): ${unknown.join(', ')} (see reference/faults.ts)`);
  return catalogue.filter((f) => only.includes(f.name));
}

export type Outcome = 'passed' | 'failed' | 'skipped' | 'capped' | 'interrupted';

export interface TestOutcome {
  project: string;
  /** "file › describe › title" */
  title: string;
  tags: string[];
  outcome: Outcome;
  durationMs: number;
}

/**
 * Reads the outcomes from Playwright's JSON report. A fault project turns its failures into expected
 * failures (fixtures/test.ts mutationCap), so the outcome is the result's own status, not the test's
 * expected/unexpected verdict; a skip by the kill cap is told apart from a capability skip.
 */
export function readOutcomes(file: string): { tests: TestOutcome[]; errors: string[] } {
  const report = readReportFile(file);
  if (!report) return { tests: [], errors: ['no JSON report was written'] };
  const tests = flattenReport(report).map((t): TestOutcome => {
    const status = t.resultStatus;
    const capped = t.annotations.some((a) => a.type === 'skip' && a.description?.startsWith('fault already killed'));
    const outcome: Outcome =
      status === 'failed' || status === 'timedOut' ? 'failed' : status === 'passed' ? 'passed' : status === 'skipped' ? (capped ? 'capped' : 'skipped') : 'interrupted';
    return { project: t.project, title: t.title, tags: t.tags.map((x) => x.replace(/^@/, '')), outcome, durationMs: t.durationMs };
  });
  return { tests, errors: reportErrors(report).map((message) => `playwright error: ${message.split('\n')[0]}`) };
}

export function buildMatrix(
  run: { exitCode: number; jsonReport: string },
  faults: readonly FaultInfo[],
  profile: Profile,
  meta: Pick<Matrix, 'command' | 'scope' | 'workers' | 'maxKills' | 'wallMs'>,
): Matrix {
  const { tests: outcomes, errors } = readOutcomes(run.jsonReport);
  const problems = [...errors];
  if (run.exitCode !== 0 && run.exitCode !== 1) problems.push(`playwright exited ${run.exitCode}`);
  const interrupted = outcomes.filter((t) => t.outcome === 'interrupted');
  if (interrupted.length) problems.push(`${interrupted.length} test(s) did not finish (interrupted or not run), e.g. [${interrupted[0]!.project}] ${interrupted[0]!.title}`);
  const byProject = new Map<string, TestOutcome[]>();
  for (const t of outcomes) byProject.set(t.project, [...(byProject.get(t.project) ?? []), t]);
  const cleanTests = byProject.get(profile.name) ?? [];
  if (!cleanTests.length) problems.push(`the clean project ${profile.name} ran no tests`);
  const clean = {
    passed: cleanTests.filter((t) => t.outcome === 'passed').length,
    failed: cleanTests.filter((t) => t.outcome === 'failed').length,
    skipped: cleanTests.filter((t) => t.outcome === 'skipped').length,
    failures: cleanTests.filter((t) => t.outcome === 'failed').map((t) => t.title),
  };
  // Citations come from the clean project, which runs every test: the fault projects may be filtered.
  const citing = (ruleId: string) => cleanTests.filter((t) => t.tags.includes(ruleId));
  const grants = granted(profile);

  const results: FaultResult[] = faults.map((fault) => {
    const rule = ruleById.get(fault.rule);
    const tests = byProject.get(`${profile.name}~${fault.name}`) ?? [];
    const failing = tests.filter((t) => t.outcome === 'failed').map((t) => t.title);
    const base = {
      name: fault.name,
      rule: fault.rule,
      ruleStatement: rule?.statement ?? '(not in the ledger)',
      ruleLevel: rule?.level ?? ('unknown' as const),
      description: fault.description,
      ran: tests.filter((t) => t.outcome === 'passed' || t.outcome === 'failed').length,
      failing,
      testMs: tests.reduce((sum, t) => sum + t.durationMs, 0),
    };
    const capped = tests.filter((t) => t.outcome === 'capped').length;
    if (failing.length) return { ...base, verdict: 'killed' as const, reason: `${failing.length} test(s) failed${capped ? `, ${capped} more not run (kill cap)` : ''}` };
    const needs = rule && rule.where !== 'any' ? (rule.where.slice('capability:'.length) as Capability) : undefined;
    if (needs && !grants.has(needs)) return { ...base, verdict: 'not applicable' as const, reason: `${fault.rule} needs capability ${needs}, which profile ${profile.name} does not grant` };
    if (!rule) return { ...base, verdict: 'survived' as const, reason: `rule ${fault.rule} is not in the ledger` };
    if (rule.impliedBy?.length) {
      return { ...base, verdict: 'equivalent' as const, reason: `${fault.rule} is implied by ${rule.impliedBy.join(' and ')}: a server breaking only ${fault.rule} answers like a conforming one (an equivalent mutant)` };
    }
    const cited = citing(fault.rule);
    if (!cited.length) return { ...base, verdict: 'survived' as const, reason: `no test cites ${fault.rule}` };
    const ranCited = cited.filter((t) => t.outcome !== 'skipped').length;
    if (!ranCited) return { ...base, verdict: 'survived' as const, reason: `${cited.length} test(s) cite ${fault.rule}, all skipped on ${profile.name}` };
    return { ...base, verdict: 'survived' as const, reason: `${cited.length} test(s) cite ${fault.rule}, all passed with the fault on` };
  });
  const expected = new Set(faults.map((f) => `${profile.name}~${f.name}`));
  const missing = [...expected].filter((p) => !byProject.has(p) && faults.find((f) => `${profile.name}~${f.name}` === p && citing(f.rule).length));
  if (missing.length) problems.push(`${missing.length} fault project(s) reported no tests although tests cite their rule: ${missing.slice(0, 5).join(', ')}`);

  const broken = new Set(faultCatalogue.map((f) => f.rule));
  const documentedRulesWithoutFault = rules
    .filter((r) => r.level === 'documented' && !r.retired && !broken.has(r.id))
    .map((r) => ({ id: r.id, section: r.section, statement: r.statement }));

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
  };
}

const useColor = Boolean(process.stdout.isTTY || process.env.FORCE_COLOR) && process.env.NO_COLOR === undefined;
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
    lines.push('', red(`SURVIVED (${survivors.length}): no test failed with the fault on`));
    for (const f of survivors) lines.push(red(`  ✖ ${f.name.padEnd(38)} ${f.rule.padEnd(8)} ${f.reason}`) + dim(`  — ${f.ruleStatement}`));
  }
  if (na.length) {
    lines.push('', yellow(`NOT APPLICABLE (${na.length})`));
    for (const f of na) lines.push(`  - ${f.name.padEnd(38)} ${f.rule.padEnd(8)} ${f.reason}`);
  }
  if (killed.length) {
    lines.push('', green(`KILLED (${killed.length})`));
    for (const f of killed) {
      const titles = f.failing.slice(0, 3).map((t) => t.split(' › ').slice(-1)[0]);
      lines.push(`  ${green('✓')} ${f.name.padEnd(38)} ${f.rule.padEnd(8)} ${String(f.failing.length).padStart(3)}  ${dim(titles.join(' | ') + (f.failing.length > 3 ? ' | …' : ''))}`);
    }
  }
  lines.push('');
  if (m.clean.failed) {
    lines.push(red(`✖ the clean project ${m.profile} has ${m.clean.failed} failure(s): the matrix means nothing until it passes`));
    for (const t of m.clean.failures.slice(0, 10)) lines.push(red(`    ${t}`));
  } else lines.push(`clean project ${m.profile}: ${m.clean.passed} passed, ${m.clean.failed} failed, ${m.clean.skipped} skipped`);
  for (const p of m.problems) lines.push(red(`✖ incomplete run: ${p}`));
  lines.push(`documented rules that no fault breaks: ${m.documentedRulesWithoutFault.length}`);
  lines.push(
    `${m.summary.killed} killed, ${m.summary.survived} survived, ${m.summary.notApplicable} not applicable, ${m.summary.equivalent} equivalent (of ${m.summary.faults}) — wall time ${(m.wallMs / 1000).toFixed(1)} s`,
  );
  if (survivors.length) lines.push(dim(`replay one fault: PAYMENTS_CLIENT_FAULTS=<fault> npx playwright test --project=${m.profile} --grep @<RULE>`));
  return lines.join('\n');
}

export async function mutation(options: Options): Promise<{ ok: boolean; matrix: Matrix }> {
  const started = Date.now();
  const profile = loadProfile(options.profile);
  if (profile.target.kind !== 'reference') throw new Error(`profile ${profile.name} does not target the reference service: faults can only be injected there`);
  const faults = selectFaults(faultCatalogue, options.only);
  const unknownRules = faults.filter((f) => !ruleById.has(f.rule));
  if (unknownRules.length) console.error(`! fault(s) naming rules not in the ledger: ${unknownRules.map((f) => `${f.name}→${f.rule}`).join(', ')}`);

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'payments-mutation-'));
  const faultFile = path.join(tmp, 'faults.json');
  writeFileSync(faultFile, JSON.stringify({ scope: options.scope, faults: faults.map(({ name, rule }) => ({ name, rule })) }));
  const outputDir = path.join(tmp, 'test-results');
  const killsDir = path.join(tmp, 'kills');
  mkdirSync(killsDir);
  console.log(
    `kill matrix: ${faults.length} fault project(s) + clean ${profile.name}, scope ${options.scope}, ${options.workers} workers${options.maxKills ? `, each fault stops after ${options.maxKills} failing test(s)` : ''}…`,
  );

  const run = await runPlaywright(
    [],
    {
      PAYMENTS_PROFILES: profile.name,
      PAYMENTS_MUTATION_FAULTS: faultFile,
      PAYMENTS_ALLURE: '0',
      PAYMENTS_WORKERS: String(options.workers),
      PAYMENTS_OUTPUT_DIR: outputDir,
      PAYMENTS_CLIENT_FAULTS: '',
      PAYMENTS_TRANSCRIPT_DIR: '',
      PAYMENTS_MUTATION_KILLS_DIR: killsDir,
      PAYMENTS_MUTATION_MAX_KILLS: String(options.maxKills),
    },
    { quiet: true },
  );
  const command = ['npm run mutation --', `--profile ${profile.name}`, options.only.length ? `--only ${options.only.join(',')}` : '', options.scope !== 'cited' ? `--scope ${options.scope}` : '']
    .filter(Boolean)
    .join(' ');
  const matrix = buildMatrix(run, faults, profile, { command, scope: options.scope, workers: options.workers, maxKills: options.maxKills, wallMs: Date.now() - started });
  rmSync(tmp, { recursive: true, force: true });
  rmSync(run.runDir, { recursive: true, force: true });

  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(path.join(options.outDir, 'matrix.json'), JSON.stringify(matrix, null, 2) + '\n');
  writeFileSync(path.join(options.outDir, 'index.html'), renderMutationPage(matrix));
  console.log(formatMatrix(matrix));
  console.log(`matrix: ${path.join(options.outDir, 'matrix.json')}, page: ${path.resolve(options.outDir, 'index.html')}`);
  const ok = matrix.complete && matrix.clean.failed === 0 && matrix.summary.survived === 0;
  return { ok, matrix };
}

if (require.main === module) {
  let options: Options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`✖ ${(error as Error).message}`);
    process.exit(2);
  }
  mutation(options).then(
    ({ ok }) => process.exit(ok ? 0 : 1),
    (error: unknown) => {
      console.error(`✖ ${(error as Error).message}`);
      process.exit(2);
    },
  );
}
