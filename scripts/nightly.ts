/**
 * `npm run nightly -- --project <env> [playwright args]`
 *   runs the suite against <env>, renders the report, scans it for secrets and applies the known
 *   deviations of environments/<env>.deviations.json (see scripts/deviations.ts for the policy).
 *
 * `npm run nightly -- --project <env> --from-report <file or dir> [--from-report ...]`
 *   applies the deviations to Playwright JSON reports that already exist: the merge step of a sharded
 *   CI run, where each shard wrote its own report. A directory means every *.json in it.
 *
 * Before the suite, a discovery (npm run discover) checks the profile's assumptions against what the
 * target answers now (`--no-discover` skips it; with --from-report it runs only with `--discover`).
 * An assumption that changed is drift, in a section of its own (scripts/lib/drift.ts): observed by
 * discovery, or a test that failed on assumption rules alone. Drift is never a conformance failure.
 *
 * Exit 0 when every failure is a known, unexpired deviation, no entry is expired or stale and nothing
 * drifted; 1 on a conformance failure; 2 when the run was refused; 3 when conformance is fine but an
 * assumption drifted.
 */
import { historyRecord, judgeRunHistory } from '../runner/history';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadProfile, ProfileError } from '../profile/profile';
import { testRecords, type PlaywrightJsonReport, type TestRecord } from './lib/run-records';
import {
  applyDeviations,
  describeDeviation,
  deviationsFile,
  DeviationsError,
  loadDeviations as loadFileDeviations,
  todayUtc,
  type Deviation,
  type DeviationOutcome,
} from '../ledger/deviations';
import { runSettings, suiteEnvironment } from '../profile/run-settings';
import { runPlaywright } from './lib/run-playwright';
import { DEFAULT_OUTPUT, renderReport } from './report';
import { describeLeak, scanForSecrets } from './scan-secrets';
import { runPaths } from '../record/run-folder';
import { costLine, discoverProfile } from './discover';
import { driftOf } from '../engines/discovery/diff';
import { nightlyExitCode, renderDrift, splitRegressions, type DriftReport } from './lib/drift';

export interface NightlyArgs {
  project: string;
  fromReports: string[];
  deviationsFile?: string;
  partial: boolean;
  /** Run a discovery before the suite and report drift (default: yes, unless --from-report). */
  discover: boolean;
  /** Everything else, passed to Playwright unchanged (--project included). */
  playwrightArgs: string[];
}

/** Playwright arguments that run only part of the suite: a deviation matching no test then proves nothing. */
const FILTERING = /^(--grep|-g|--grep-invert|--shard|--last-failed|--only-changed|--project-grep)(=|$)/;

/** Playwright flags whose value is the next argument. */
const VALUE_FLAGS = new Set([
  '--workers',
  '-j',
  '--reporter',
  '--timeout',
  '--retries',
  '--repeat-each',
  '--max-failures',
  '--output',
  '--config',
  '-c',
  '--trace',
  '--global-timeout',
  '--grep',
  '-g',
  '--grep-invert',
  '--shard',
  '--tsconfig',
]);

export function parseNightlyArgs(argv: string[]): NightlyArgs {
  const out: NightlyArgs = { project: '', fromReports: [], partial: false, discover: true, playwrightArgs: [] };
  let discover: boolean | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const take = (flag: string): string | undefined =>
      a === flag ? argv[++i] : a.startsWith(`${flag}=`) ? a.slice(flag.length + 1) : undefined;
    let v: string | undefined;
    if ((v = take('--from-report')) !== undefined) out.fromReports.push(v);
    else if ((v = take('--deviations')) !== undefined) out.deviationsFile = v;
    else if (a === '--partial') out.partial = true;
    else if (a === '--discover' || a === '--no-discover') discover = a === '--discover';
    else if ((v = take('--project')) !== undefined) {
      if (out.project && out.project !== v)
        throw new Error("nightly applies one environment's deviations: give exactly one --project");
      out.project = v;
      out.playwrightArgs.push(`--project=${v}`);
    } else {
      out.playwrightArgs.push(a);
      const previous = argv[i - 1];
      if (FILTERING.test(a)) out.partial = true;
      // A positional argument is a file or line filter, unless it is the value of the flag before it.
      else if (!a.startsWith('-') && !(previous && VALUE_FLAGS.has(previous))) out.partial = true;
    }
  }
  if (!out.project)
    throw new Error(
      'usage: npm run nightly -- --project <env> [--no-discover] [playwright args | --from-report <json file or dir>... [--discover]]',
    );
  out.discover = discover ?? out.fromReports.length === 0;
  return out;
}

export const loadDeviations = (project: string, file = deviationsFile(project)): Deviation[] =>
  loadFileDeviations(file);

function reportFiles(inputs: string[]): string[] {
  return inputs.flatMap((input) => {
    if (!existsSync(input)) throw new Error(`report ${input} not found (did a shard fail to upload its results?)`);
    if (statSync(input).isDirectory()) {
      const found = readdirSync(input)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => path.join(input, f));
      if (!found.length) throw new Error(`no *.json report in ${input}`);
      return found;
    }
    return [input];
  });
}

/** Tests of one project from JSON reports; a report with errors outside tests means the run itself broke. */
export function testsFromReports(files: string[], project: string): { tests: TestRecord[]; errors: string[] } {
  const tests: TestRecord[] = [];
  const errors: string[] = [];
  for (const file of files) {
    const report = JSON.parse(readFileSync(file, 'utf8')) as PlaywrightJsonReport;
    for (const e of report.errors ?? []) errors.push(`${file}: ${(e.message ?? 'error').split('\n')[0]}`);
    tests.push(...testRecords(report).filter((t) => t.project === project));
  }
  return { tests, errors };
}

/** The closing lines; `ok` is the job's verdict (deviations and run problems), never more optimistic than it. */
export function renderOutcome(
  project: string,
  outcome: DeviationOutcome,
  counts: { passed: number; failed: number; skipped: number },
  ok = outcome.ok,
): string[] {
  const lines: string[] = [''];
  for (const k of outcome.known)
    lines.push(
      `KNOWN DEVIATION  ${k.test}\n                 ${k.deviation.reason} — ${describeDeviation(k.deviation)}`,
    );
  for (const r of outcome.regressions) lines.push(`REGRESSION       ${r.test}`);
  for (const d of outcome.expired)
    lines.push(
      `EXPIRED          deviation ${describeDeviation(d)}: renew it with a new date and a reason, or fix the failure`,
    );
  for (const s of outcome.stale) lines.push(`STALE            deviation ${describeDeviation(s.deviation)}: ${s.why}`);
  for (const u of outcome.unchecked)
    lines.push(`not checked      deviation ${describeDeviation(u.deviation)}: ${u.why}`);
  lines.push(
    '',
    `nightly ${project}: ${ok ? 'OK' : 'FAILED'} — ${counts.passed} passed, ${counts.failed} failed (${outcome.known.length} known deviations, ${outcome.regressions.length} regressions), ${counts.skipped} skipped; ${outcome.expired.length} expired and ${outcome.stale.length} stale deviation entries`,
  );
  return lines;
}

function markdown(project: string, outcome: DeviationOutcome, ok: boolean): string {
  const rows = [
    ...outcome.regressions.map((r) => `| ❌ regression | ${r.test} | |`),
    ...outcome.expired.map((d) => `| ⌛ expired deviation | ${describeDeviation(d)} | renew or fix |`),
    ...outcome.stale.map((s) => `| 🧹 stale deviation | ${describeDeviation(s.deviation)} | ${s.why} |`),
    ...outcome.known.map((k) => `| ⚠️ known deviation | ${k.test} | ${k.deviation.reason} (${k.deviation.ticket}) |`),
  ];
  return [
    `### Nightly ${project}: ${ok ? 'OK' : 'FAILED'}`,
    '',
    ...(rows.length ? ['| kind | what | note |', '|---|---|---|', ...rows] : ['No failures.']),
    '',
  ].join('\n');
}

/** Discovery against the profile: the fields that drifted, or why it could not run. */
async function checkAssumptions(args: NightlyArgs): Promise<Pick<DriftReport, 'fields' | 'discovery'>> {
  if (!args.discover)
    return {
      fields: [],
      discovery: {
        ran: false,
        why: args.fromReports.length ? 'a merge of reports (--discover to run one)' : '--no-discover',
      },
    };
  try {
    const { diff, discovery } = await discoverProfile(args.project, { print: false });
    console.log(costLine(args.project, discovery));
    return { fields: driftOf(diff), discovery: { ran: true } };
  } catch (error) {
    return { fields: [], discovery: { ran: false, why: (error as Error).message, error: true } };
  }
}

/** Exit code of the job: 0 OK, 1 a regression, an expired or stale deviation or a run problem, 2 refused (nothing ran), 3 conformance OK but assumptions drifted. */
export async function nightly(args: NightlyArgs): Promise<number> {
  try {
    loadProfile(args.project);
  } catch (error) {
    if (error instanceof ProfileError) {
      console.error(`✖ ${error.message}`);
      return 2;
    }
    throw error;
  }
  const deviations = loadDeviations(args.project, args.deviationsFile);
  const assumptions = await checkAssumptions(args);
  let tests: TestRecord[];
  let problems: string[] = [];
  let complete = !args.partial;

  if (args.fromReports.length) {
    const read = testsFromReports(reportFiles(args.fromReports), args.project);
    tests = read.tests;
    problems = read.errors;
  } else {
    const { runDir } = runSettings();
    const work = mkdtempSync(path.join(os.tmpdir(), 'payments-nightly-'));
    const canary = path.join(work, 'secrets.jsonl');
    let report: string | undefined;
    try {
      const run = await runPlaywright(
        args.playwrightArgs,
        { PAYMENTS_SECRET_CANARY: canary, PAYMENTS_RUN_DIR: runDir },
        { command: `npm run nightly -- ${process.argv.slice(2).join(' ')}`.trim() },
      );
      if (!run.executed) {
        // Refused before any test ran: the config or the global setup said why. No verdict, no report.
        if (!run.record) rmSync(runDir, { recursive: true, force: true });
        if (run.exitCode !== 2)
          console.error(
            `✖ nightly ${args.project}: the run executed no test (playwright exit ${run.exitCode}); no report, no verdict`,
          );
        return run.exitCode === 2 ? 2 : 1;
      }
      if (!existsSync(run.jsonReport)) problems.push(`the suite produced no report (playwright exit ${run.exitCode})`);
      else {
        const read = testsFromReports([run.jsonReport], args.project);
        tests = read.tests;
        problems.push(...read.errors);
      }
      // The run's history is evidence too: a violation there is a conformance failure of the night.
      const history = historyRecord(judgeRunHistory(run.runDir));
      for (const project of history.projects)
        for (const v of project.violations)
          problems.push(`the run's history (${project.project}, ${v.property}): ${v.rule} ${v.what} (${history.file})`);
      report = renderReport(runPaths(run.runDir).allureResults, DEFAULT_OUTPUT, { print: false });
      if (!report) problems.push('the Allure report could not be rendered');
      const scan = scanForSecrets(canary, [runDir, ...(report ? [path.dirname(report)] : [])]);
      for (const leak of scan.leaks) problems.push(describeLeak(leak));
      if (scan.leaks.length) report = undefined;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    tests ??= [];
    if (report) console.log(`report: ${report}`);
  }
  if (!tests.length) problems.push(`no test of project ${args.project} ran`);
  if (args.playwrightArgs.some((a) => /^--shard/.test(a))) complete = false;

  const applied = applyDeviations(tests, deviations, todayUtc(), complete);
  // A test that failed on assumptions alone is drift, not a regression.
  const failedRules = new Map(tests.map((t) => [t.title, t.failedRules]));
  const split = splitRegressions(applied.regressions, (title) => failedRules.get(title));
  const outcome: DeviationOutcome = {
    ...applied,
    regressions: split.conformance,
    ok: split.conformance.length === 0 && applied.expired.length === 0 && applied.stale.length === 0,
  };
  const drift: DriftReport = { ...assumptions, assumptionFailures: split.assumptions };
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const t of tests) counts[t.outcome]++;
  const ok = outcome.ok && problems.length === 0;
  for (const p of problems) console.error(`✖ ${p}`);
  console.log(renderOutcome(args.project, outcome, counts, ok).join('\n'));
  console.log(renderDrift(args.project, drift).join('\n'));
  const exitCode = nightlyExitCode(ok, drift);

  mkdirSync(path.join('reports', 'nightly'), { recursive: true });
  writeFileSync(
    path.join('reports', 'nightly', `${args.project}.json`),
    `${JSON.stringify({ project: args.project, date: todayUtc(), counts, ...outcome, ok, problems, drift, exitCode }, null, 2)}\n`,
  );
  const { githubStepSummary } = suiteEnvironment();
  if (githubStepSummary) appendFileSync(githubStepSummary, markdown(args.project, outcome, ok) + driftMarkdown(drift));
  return exitCode;
}

function driftMarkdown(drift: DriftReport): string {
  const rows = [
    ...drift.fields.map(
      (f) =>
        `| 🔀 assumption drift | ${f.field} | profile ${JSON.stringify(f.expected)}, observed ${f.observed.map((o) => JSON.stringify(o)).join(', ')} (${f.rules.join(', ')}) |`,
    ),
    ...drift.assumptionFailures.map((f) => `| 🔀 assumption not met | ${f.test} | ${f.rules.join(', ')} |`),
    ...(drift.discovery.ran || !drift.discovery.error
      ? []
      : [`| ⚠️ drift unchecked | discovery | ${drift.discovery.why} |`]),
  ];
  return rows.length ? ['#### Assumptions', '', '| kind | what | note |', '|---|---|---|', ...rows, ''].join('\n') : '';
}

if (require.main === module) {
  let args: NightlyArgs;
  try {
    args = parseNightlyArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`✖ ${(error as Error).message}`);
    process.exit(2);
  }
  nightly(args).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`✖ ${(error as Error).message}`);
      process.exit(error instanceof DeviationsError ? 2 : 1);
    },
  );
}
