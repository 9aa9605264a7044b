/**
 * `npm run explore [-- --project <name>] [--sequences N] [--replay 'lane=…;seed=…;path=…'] [--no-report] [playwright args]`
 *
 * Stateful exploration of money flows (tests tagged @explore, tests/money/explore.spec.ts) against a
 * profile (default local), with the profile's budget (`exploration`) or --sequences. Runs like
 * `npm run conformance` (its own run folder, the HTML report, the secret scan; --no-report skips
 * the last two), then prints per lane: the fast-check seed, the sequences run, the payments the
 * exploration created, and for a failure the shrunk sequence and the one command that replays it.
 * Faults of the embedded reference: PAYMENTS_CLIENT_FAULTS=<fault,…> (as the kill matrix sets them).
 */
import { parseArgs } from 'node:util';
import { readReportFile, type ReportTest, flattenReport } from '../record/playwright-report';
import { runPaths } from '../record/run-folder';
import { cliMain } from './lib/cli';
import { rmSync } from 'node:fs';
import { runPlaywright } from './lib/run-playwright';
import { conformance } from './conformance';
import type { ExplorationSummary } from '../engines/exploration/report';

const USAGE =
  "usage: npm run explore [-- --project <name>] [--sequences N] [--replay 'lane=…;seed=…;path=…[;replayPath=…]'] [--no-report] [playwright args]";

/** The annotation an exploration leaves (engines/exploration/report.ts EXPLORATION_ANNOTATION; not imported: that module loads Playwright's test). */
const ANNOTATION = 'exploration';

export interface ExploreOptions {
  sequences?: number;
  replay?: string;
  report: boolean;
  /** Arguments for Playwright (the project included). */
  playwright: string[];
}

export function parseExploreArgs(argv: string[]): ExploreOptions {
  const { values, tokens } = parseArgs({
    args: argv,
    options: {
      sequences: { type: 'string' },
      replay: { type: 'string' },
      'no-report': { type: 'boolean', default: false },
    },
    strict: false,
    tokens: true,
  });
  const ours = new Set(['sequences', 'replay', 'no-report']);
  const playwright: string[] = [];
  for (const t of tokens ?? []) {
    if (t.kind === 'option' && ours.has(t.name)) continue;
    if (t.kind === 'option')
      playwright.push(
        t.rawName + (t.inlineValue && t.value !== undefined ? `=${t.value}` : ''),
        ...(!t.inlineValue && t.value !== undefined ? [t.value] : []),
      );
    else if (t.kind === 'positional') playwright.push(t.value);
  }
  const sequences = values.sequences === undefined ? undefined : Number(values.sequences);
  if (sequences !== undefined && !(Number.isInteger(sequences) && sequences > 0))
    throw new Error(`--sequences must be a positive integer, not "${String(values.sequences)}"\n${USAGE}`);
  if (!playwright.some((a) => a === '--project' || a.startsWith('--project='))) playwright.push('--project=local');
  return {
    ...(sequences !== undefined ? { sequences } : {}),
    ...(typeof values.replay === 'string' ? { replay: values.replay } : {}),
    report: values['no-report'] !== true,
    playwright,
  };
}

/** The exploration summaries a run left on its tests, with their project. */
export function explorationsOf(tests: readonly ReportTest[]): {
  project: string;
  title: string;
  outcome: ReportTest['outcome'];
  summary?: ExplorationSummary;
  skipped?: string;
}[] {
  return tests
    .filter((t) => t.tags.some((tag) => tag.replace(/^@/, '') === 'explore'))
    .map((t) => {
      const found = [...t.resultAnnotations, ...t.annotations].find((a) => a.type === ANNOTATION && a.description);
      const skip = [...t.resultAnnotations, ...t.annotations].find((a) => a.type === 'skip')?.description;
      return {
        project: t.project,
        title: t.titlePath.at(-1) ?? t.title,
        outcome: t.outcome,
        ...(found ? { summary: JSON.parse(found.description!) as ExplorationSummary } : {}),
        ...(skip ? { skipped: skip } : {}),
      };
    });
}

export function formatExplorations(explorations: ReturnType<typeof explorationsOf>): string {
  const lines: string[] = [''];
  let payments = 0;
  for (const e of explorations) {
    const s = e.summary;
    if (!s) {
      lines.push(`exploration [${e.project}] ${e.title}: ${e.outcome}${e.skipped ? ` — ${e.skipped}` : ''}`);
      continue;
    }
    payments += s.payments;
    const verdict = s.failed ? `FAILED${s.rule ? ` (${s.rule})` : ''}` : e.outcome === 'passed' ? 'passed' : e.outcome;
    lines.push(
      `exploration [${e.project}] lane "${s.lane}": ${verdict} — ${s.sequences} sequences asked, ${s.runs} run (shrinking included; ${s.shrinks} shrink step(s) taken), ${s.payments} payments created (at most ${s.maxPayments}), fast-check seed ${s.seed}`,
    );
    if (s.steps?.length) {
      lines.push(`  shrunk sequence (${s.steps.length} step(s)):`);
      for (const step of s.steps) lines.push(`    ${step}`);
    }
    if (s.replay) lines.push(`  replay: ${s.replay}`);
  }
  lines.push(`exploration created ${payments} payment(s) in all`);
  return lines.join('\n');
}

export async function exploreCommand(options: ExploreOptions): Promise<boolean> {
  process.env.PAYMENTS_EXPLORE = '1';
  if (options.sequences !== undefined) process.env.PAYMENTS_EXPLORE_SEQUENCES = String(options.sequences);
  if (options.replay !== undefined) process.env.PAYMENTS_EXPLORE_REPLAY = options.replay;
  const args = ['--grep', '@explore', ...options.playwright];
  let ok: boolean;
  let runDir: string;
  if (options.report) {
    const result = await conformance(args);
    if (result.exitCode === 2) process.exit(2);
    ({ ok, runDir } = result);
  } else {
    const run = await runPlaywright(
      args,
      { PAYMENTS_ALLURE: '0' },
      { command: ['npm run explore --', ...process.argv.slice(2)].join(' ') },
    );
    if (!run.executed) process.exit(run.exitCode === 2 ? 2 : 1);
    ({ runDir } = run);
    ok = run.exitCode === 0;
  }
  const report = readReportFile(runPaths(runDir).jsonReport);
  console.log(formatExplorations(explorationsOf(report ? flattenReport(report) : [])));
  // --no-report runs in a scratch folder (runPlaywright, no PAYMENTS_RUN_DIR given): kept, and
  // named, only when something failed; npm test's exploration step left one in the temp folder per run.
  if (!options.report) {
    if (ok) rmSync(runDir, { recursive: true, force: true });
    else console.log(`run folder: ${runDir}`);
  }
  return ok;
}

if (require.main === module) cliMain(USAGE, () => exploreCommand(parseExploreArgs(process.argv.slice(2))));
