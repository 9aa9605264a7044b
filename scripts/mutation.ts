/**
 * `npm run mutation [-- --profile local-strict-422] [--only f1,f2] [--without batchControl] [--scope cited|all] [--workers N] [--max-kills N] [--clean-run <run folder>] [--every-cited-test] [--write-first-kills]`
 *
 * The kill matrix: proves that each ledger rule the reference can break is caught by the suite. Every
 * fault of reference/faults.ts breaks one rule (on one operation, for `base@operation` faults). One
 * Playwright run of playwright.mutation.config.ts against one reference server: the clean project
 * plus one project per batch of faults that share no test (scripts/lib/fault-batches.ts), each test
 * run against its one fault with clients registered with that fault only.
 *
 * A fault runs first the one test that killed it in an earlier matrix (ledger/first-kills.json,
 * scripts/lib/first-kills.ts), and every test citing its rule only when that one no longer kills it,
 * in a second run: most faults run one test, not every test citing their rule until one kills it, nor
 * the rest only for the kill cap to skip them. `--every-cited-test` runs every cited test of every fault,
 * as a matrix without a record would; `--write-first-kills` records this run's first kills.
 * `--clean-run` takes the clean project's results from a run of the same profile and code instead
 * (npm test passes its conformance run's folder): the suite is not run twice without faults.
 * `--without` turns capability switches of the profile off, the clean project's too: a fault proven
 * killed where a target grants no more than a sandbox does (no batch control, no notifications).
 * (A sandbox-like profile has no admin API to register clients with a fault.)
 *
 * Verdicts: killed (a test failed the fault's rule), survived (none did: a missing or weak test), not
 * applicable (the rule needs a capability the profile does not grant), equivalent (no server can break
 * the rule alone). A survivor runs every test citing its rule once more before it is called survived.
 * Exit 1 when a fault survives, the clean project fails, or the run did not complete.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { faultCatalogue, type FaultInfo } from '../reference/faults';
import { ruleById } from '../ledger/rules';
import { loadProfile } from '../profile/profile';
import { flattenReport, reportErrors, readReportFile, type ReportTest } from '../record/playwright-report';
import { runPlaywright } from './lib/run-playwright';
import { batchFaults } from './lib/fault-batches';
import {
  FIRST_KILLS_FILE,
  firstKillsOf,
  notKilled,
  readFirstKills,
  withFirstKills,
  writeFirstKills,
} from './lib/first-kills';
import { listTests } from './ledger-check';
import { buildMatrix, formatMatrix, type Matrix } from './lib/matrix';
import { renderMutationPage } from './lib/matrix-page';
import { cliMain } from './lib/cli';
import type { MutationPlan } from '../playwright.mutation.config';
import { runPaths } from '../record/run-folder';
import { judgeRunHistory } from '../runner/history';
import { historyViolations } from './lib/matrix';
import { checkHistory, type HistoryVerdict } from '../checks/history';
import { historiesByClientFaults, readRunHistory } from '../record/history';
import { faultProject, withoutCapabilities, type Fault, type SelectableTest } from '../ledger/kills';

/**
 * REF_FAULT_LATER_MS of the matrix's reference: its late faults act at once. A fault's few tests end
 * within milliseconds on a quiet machine, before any delay passed, and the fault would survive there.
 */
const HISTORY_FAULT_LATER_MS = 0;

const USAGE =
  'usage: npm run mutation [-- --profile <name>] [--only fault1,fault2] [--without capability1,capability2] [--scope cited|all] [--workers N] [--max-kills N (0 = all)] [--clean-run <run folder>] [--every-cited-test] [--write-first-kills]';

/**
 * Faults a batch holds at most: a batch is one worker, and a worker's start (Playwright's modules, the
 * fixtures' setup) costs more than most faults' tests. Small enough that the batches spread over the
 * workers and end about together.
 */
const FAULTS_PER_BATCH = 32;

interface Options {
  profile: string;
  only: string[];
  /** Capability switches of the profile turned off. */
  without: string[];
  scope: 'cited' | 'all';
  workers: number;
  /** Stop a fault's tests after this many kills (0 = run them all). */
  maxKills: number;
  outDir: string;
  /** A run folder whose results stand for the clean project (a run of the same profile, without faults). */
  cleanRun?: string;
  /** A fault with a first kill recorded (ledger/first-kills.json) runs that test first (scripts/lib/first-kills.ts). */
  firstKills: boolean;
  /** Record the run's first kills in ledger/first-kills.json. */
  writeFirstKills: boolean;
}

export function parseMutationArgs(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      profile: { type: 'string', default: 'local' },
      project: { type: 'string' },
      only: { type: 'string', multiple: true, default: [] },
      without: { type: 'string', multiple: true, default: [] },
      scope: { type: 'string', default: 'cited' },
      workers: { type: 'string' },
      // One kill proves a fault killed (fixtures/kill-cap.ts); the fault's other tests would only
      // repeat it, and they were about a seventh of the matrix's CPU.
      'max-kills': { type: 'string', default: '1' },
      out: { type: 'string', default: 'reports/mutation' },
      'clean-run': { type: 'string' },
      'every-cited-test': { type: 'boolean', default: false },
      'write-first-kills': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.scope !== 'cited' && values.scope !== 'all') throw new Error(`--scope must be cited or all\n${USAGE}`);
  return {
    profile: values.project ?? values.profile!,
    only: values
      .only!.flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean),
    without: values
      .without!.flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean),
    scope: values.scope,
    // Six more than cores, eight at most: a batch's worker spends much of its life starting and
    // waiting (its clients registered, its pool paid and settled, its statuses polled), not on a
    // core, and each batch starts one worker however many run at once.
    workers: Number(values.workers) || Math.min(8, os.cpus().length + 6),
    maxKills: Math.max(0, Number(values['max-kills']) || 0),
    outDir: values.out!,
    ...(values['clean-run'] ? { cleanRun: values['clean-run'] } : {}),
    firstKills: !values['every-cited-test'],
    writeFirstKills: values['write-first-kills']!,
  };
}

/** The tests of project `profile` in a run folder's results: the clean project, run before. */
function cleanRunTests(runDir: string, profile: string): ReportTest[] {
  const report = readReportFile(runPaths(runDir).jsonReport);
  if (!report) throw new Error(`--clean-run ${runDir}: no results of a run there`);
  const tests = flattenReport(report).filter((t) => t.project === profile);
  if (!tests.length) throw new Error(`--clean-run ${runDir}: the run has no test of project ${profile}`);
  return tests;
}

/**
 * Each fault's history, judged apart: the requests of the clients the reference applied it to (a
 * batch serves several faults, each with its own clients), under the name its project would have
 * alone; a project whose clients name no faults (the clean one) is judged whole.
 */
function faultHistoryVerdicts(runDir: string): HistoryVerdict[] {
  return [...readRunHistory(runDir).values()].flatMap((workers) => {
    const byFaults = historiesByClientFaults(workers);
    if (!byFaults.size) return [checkHistory(workers)];
    return [...byFaults].map(([faults, ofFaults]) =>
      checkHistory(
        ofFaults.map((w) => ({
          ...w,
          ...(w.meta ? { meta: { ...w.meta, project: faultProject(w.meta.profile, faults.split(',')) } } : {}),
        })),
      ),
    );
  });
}

interface Phase {
  exitCode: number;
  tests: ReportTest[];
  errors: string[];
  history: HistoryVerdict[];
}

/**
 * One Playwright run of the faults, in batches that share no test, against one reference, in a scratch
 * folder of its own (the matrix keeps its verdicts in reports/mutation, not the run's raw results). A
 * fault only the history sees runs alone: uncapped, with a normal run's background work; those run
 * first, beside the batches: what they break shows some time later, and a run of few requests against
 * an idle reference can end within that time.
 */
async function runFaults(
  faults: readonly Fault[],
  listed: readonly SelectableTest[],
  profile: string,
  options: Options,
  clean: boolean,
): Promise<Phase> {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'payments-mutation-'));
  try {
    const batches = [
      ...faults.filter((f) => f.seenBy).map((f) => [f]),
      ...batchFaults(
        faults.filter((f) => !f.seenBy),
        listed,
        FAULTS_PER_BATCH,
        options.scope === 'all',
      ),
    ];
    const plan: MutationPlan = {
      profile,
      scope: options.scope,
      killCap: options.maxKills,
      workers: options.workers,
      clean,
      batches,
      ...(options.without.length ? { without: options.without } : {}),
    };
    const planFile = path.join(runDir, 'mutation-plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    console.log(
      `kill matrix: ${faults.length} fault(s) in ${batches.length} project(s)${clean ? ' + the clean one' : ''}`,
    );
    const run = await runPlaywright(
      [],
      {
        PAYMENTS_RUN_DIR: runDir,
        PAYMENTS_MUTATION_PLAN: planFile,
        PAYMENTS_ALLURE: '0',
        PAYMENTS_CLIENT_FAULTS: '',
        // The faults only the history sees act this long after what they break: within a run of some seconds.
        REF_FAULT_LATER_MS: String(HISTORY_FAULT_LATER_MS),
      },
      { quiet: true, config: 'playwright.mutation.config.ts' },
    );
    const report = readReportFile(runPaths(runDir).jsonReport);
    return {
      exitCode: run.exitCode,
      tests: run.tests,
      errors: report
        ? reportErrors(report).map((m) => `playwright error: ${m.split('\n')[0]}`)
        : ['no JSON report was written'],
      // Each fault's history (its own clients'), and the clean project's: a fault is killed by a violation of its rule there too.
      history: faultHistoryVerdicts(runDir),
    };
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}

function selectFaults(catalogue: readonly FaultInfo[], only: string[]): FaultInfo[] {
  if (!only.length) return [...catalogue];
  const unknown = only.filter((name) => !catalogue.some((f) => f.name === name));
  if (unknown.length) throw new Error(`unknown fault(s): ${unknown.join(', ')} (see reference/faults.ts)`);
  return catalogue.filter((f) => only.includes(f.name));
}

export async function mutation(options: Options): Promise<{ ok: boolean; matrix: Matrix }> {
  const started = Date.now();
  const profile = withoutCapabilities(loadProfile(options.profile), options.without);
  if (profile.target.kind !== 'reference')
    throw new Error(`profile ${profile.name} does not target the reference service: faults can only be injected there`);
  const faults = selectFaults(faultCatalogue, options.only);
  const unknownRules = faults.filter((f) => !ruleById.has(f.rule));
  if (unknownRules.length)
    console.error(
      `! fault(s) naming rules not in the ledger: ${unknownRules.map((f) => `${f.name}→${f.rule}`).join(', ')}`,
    );

  const cleanTests = options.cleanRun ? cleanRunTests(options.cleanRun, profile.name) : undefined;
  const listed = listTests([profile.name]).map((t) => ({ titlePath: t.titlePath ?? [t.title], tags: t.tags ?? [] }));
  const recorded = readFirstKills();
  const planned = withFirstKills(
    faults.map((f) => ({
      name: f.name,
      rule: f.rule,
      ...('seenBy' in f ? { seenBy: f.seenBy, exercisedBy: f.exercisedBy } : {}),
    })),
    options.scope === 'cited' && options.firstKills ? recorded : new Map(),
    listed,
  );
  const withFirst = planned.filter((f) => f.tryFirst);
  console.log(
    `kill matrix: ${faults.length} fault(s) + clean ${profile.name}${options.without.length ? ` without ${options.without.join(', ')}` : ''}${options.cleanRun ? ` (from ${options.cleanRun})` : ''}, scope ${options.scope}, ${options.workers} workers${options.maxKills ? `, each fault stops after ${options.maxKills} kill(s)` : ''}; ${withFirst.length} run their first kill (${FIRST_KILLS_FILE}) only…`,
  );
  const first = await runFaults(planned, listed, profile.name, options, cleanTests === undefined);
  // A fault its first kill no longer killed runs every test citing its rule.
  const again = notKilled(withFirst, first.tests).map(({ tryFirst: _tried, ...fault }) => fault);
  if (again.length)
    console.log(
      `kill matrix: ${again.length} fault(s) not killed by their first kill, now with every test citing their rule: ${again.map((f) => f.name).join(', ')}`,
    );
  const second = again.length ? await runFaults(again, listed, profile.name, options, false) : undefined;
  const phases = [first, ...(second ? [second] : [])];
  const command = [
    'npm run mutation --',
    `--profile ${profile.name}`,
    options.only.length ? `--only ${options.only.join(',')}` : '',
    options.without.length ? `--without ${options.without.join(',')}` : '',
    options.scope !== 'cited' ? `--scope ${options.scope}` : '',
    options.cleanRun ? `--clean-run ${options.cleanRun}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const judge = (): Matrix =>
    buildMatrix(
      {
        exitCode: Math.max(...phases.map((phase) => phase.exitCode)),
        tests: [...(cleanTests ?? []), ...phases.flatMap((phase) => phase.tests)],
        errors: phases.flatMap((phase) => phase.errors),
        history: historyViolations([
          ...phases.flatMap((phase) => phase.history),
          ...(options.cleanRun ? judgeRunHistory(options.cleanRun).filter((v) => v.project === profile.name) : []),
        ]),
      },
      faults,
      profile,
      {
        command,
        scope: options.scope,
        workers: options.workers,
        maxKills: options.maxKills,
        wallMs: Date.now() - started,
      },
    );
  // A survivor runs every test citing its rule once more before it is called survived: a missing or
  // weak test lets its fault through every time, a test that races the target (a payment that settled
  // before its cancellation, on a loaded machine) only now and then, and that is the test's to mend,
  // not a verdict on the rule.
  const survivors = new Set(
    judge()
      .faults.filter((f) => f.verdict === 'survived')
      .map((f) => f.name),
  );
  if (survivors.size) {
    console.log(
      `kill matrix: ${survivors.size} fault(s) survived, tried once more with every test citing their rule: ${[...survivors].join(', ')}`,
    );
    const retried = planned.filter((f) => survivors.has(f.name)).map(({ tryFirst: _tried, ...fault }) => fault);
    phases.push(await runFaults(retried, listed, profile.name, options, false));
  }
  const matrix = judge();
  const racing = matrix.faults.filter((f) => survivors.has(f.name) && f.verdict === 'killed').map((f) => f.name);
  if (racing.length)
    console.log(
      `kill matrix: ${racing.join(', ')} killed on the second try only: a test that kills them now and then races the target, and should wait for what it needs`,
    );
  const tests = phases.flatMap((phase) => phase.tests);
  const found = firstKillsOf(planned, tests);
  if (options.writeFirstKills) {
    writeFirstKills(options.only.length ? recorded : new Map(), found);
    console.log(`first kills: ${found.size} written to ${FIRST_KILLS_FILE}`);
  } else {
    const stale = [...found].filter(([name, path]) => recorded.get(name)?.join('\n') !== path.join('\n')).length;
    if (stale)
      console.log(
        `first kills: ${stale} fault(s) were first killed by another test than ${FIRST_KILLS_FILE} records, or it records none: npm run mutation -- --write-first-kills records them (a run the quicker for it, the same verdicts)`,
      );
  }

  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(path.join(options.outDir, 'matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(path.join(options.outDir, 'index.html'), renderMutationPage(matrix));
  console.log(formatMatrix(matrix));
  console.log(
    `matrix: ${path.join(options.outDir, 'matrix.json')}, page: ${path.resolve(options.outDir, 'index.html')}`,
  );
  return {
    ok:
      matrix.complete &&
      matrix.clean.failed === 0 &&
      matrix.clean.historyViolations === 0 &&
      matrix.summary.survived === 0,
    matrix,
  };
}

if (require.main === module)
  cliMain(USAGE, () => mutation(parseMutationArgs(process.argv.slice(2))).then(({ ok }) => ok));
