/**
 * Renders Allure results into one self-contained HTML file that opens from disk and never phones
 * home, whose rule links open the offline copy of the spec it carries (scripts/lib/report-page.ts),
 * with that copy also next to it (spec.html).
 *
 * `npm run report [-- <run> [<out dir>] [--full]]`: <run> is `last` (the default: the newest run that
 * executed tests), `previous`, a run id, a run folder, or an Allure results folder (the merge job of a
 * sharded CI run). `--full` embeds the text of passed tests' exchanges too (scripts/lib/report-content.ts).
 *
 * Allure 3 puts a report into a subfolder when the output folder is not empty, so the report is
 * rendered into a fresh folder and then moved into place. Allure's awesome plugin (3.18) always writes
 * a Google Analytics tag into index.html (analyticsEnable is hard-coded; no option or environment
 * variable turns it off yet: allure3 issue #476); the tag is cut out here, and a report that would
 * still load anything from the network is refused.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { specHtml } from '../record/spec-html';
import { reportResults, rulesTitle, type ReportEvidence } from './lib/report-content';
import { withLoadingProgress, withRulesTitle, withSpecLinks } from './lib/report-page';
import { availableRunsText, executedTests, readRunRecord, resolveRun } from '../record/run-folder';
import { suiteEnvironment } from '../profile/run-settings';

/** Where the scripts render the report of the run they made (PAYMENTS_REPORT_DIR moves it, e.g. for tests). */
export const DEFAULT_OUTPUT = suiteEnvironment().reportDir;
export const SPEC_PAGE = 'spec.html';

/** The awesome plugin's analytics block: the gtag.js loader and its inline configuration. */
const ANALYTICS_BLOCK =
  /[ \t]*<script async src="https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=[^"]*"><\/script>\s*<script>\s*window\.dataLayer[\s\S]*?<\/script>\s*/g;

/** What would make an opened report reach the network (or run analytics) if it were still there. */
export function phoningHome(html: string): string[] {
  const found: string[] = [];
  if (/googletagmanager|google-analytics|gtag\(|dataLayer/.test(html)) found.push('Google Analytics');
  // External resources loaded by the page itself: scripts, styles, images, frames, preloads.
  for (const m of html.matchAll(
    /<(script|link|img|iframe|source|video|audio|embed|object)\b[^>]*\b(?:src|href|data)\s*=\s*["']?(https?:)?\/\/[^"'\s>]+/gi,
  ))
    found.push(`external <${m[1]!.toLowerCase()}>: ${m[0].slice(0, 120)}`);
  for (const m of html.matchAll(/@import\s+(?:url\()?["']?(https?:)?\/\//gi)) found.push(`CSS @import: ${m[0]}`);
  return found;
}

/** Removes the analytics block; the rest of the page is left as Allure wrote it. */
export const stripAnalytics = (html: string): string => html.replace(ANALYTICS_BLOCK, '');

/**
 * Allure 3.18 shows a label's or the overview's metadata values on one line, each cut with an
 * ellipsis: a test citing several rules shows its tags as "S… S… S…", a rule's statement (its story)
 * loses its end, a key such as "incomingPayment versions" is cut to "incomingPayme…". This style,
 * added to the page, lets keys and values wrap instead; it wins over the app's own (injected later)
 * with !important. It selects by the app's data-testid attributes, which its own tests rely on, not
 * by its generated class names.
 */
const READABLE_METADATA = `<style>
[data-testid="metadata-item-value"] { display: flex; flex-wrap: wrap; gap: 4px; }
[data-testid="metadata-item-value"] div, [data-testid="metadata-item-value"] span,
[data-testid="metadata-item-key"] { overflow: visible !important; text-overflow: clip !important; white-space: normal !important; max-width: none !important; overflow-wrap: anywhere; }
</style>`;
export const readableMetadata = (html: string): string => html.replace('</head>', `${READABLE_METADATA}\n</head>`);

/**
 * The data files the single-file app reads: widgets/…, data/test-results/, data/test-env-groups/ and
 * data/attachments/. Allure 3.18 also embeds up to six earlier runs whole (data/history/<uuid>.json)
 * that the app never fetches (its bundle names no data/history path):
 * dead weight in every report that has a history. Each test's own history is in its test result.
 */
const UNREAD_HISTORY = /,?d\("data\/history\/[^"]+\.json","[A-Za-z0-9+/=]*"\)/g;
export const stripUnreadHistory = (html: string): string =>
  html.replace(UNREAD_HISTORY, '').replace('Promise.allSettled([,', 'Promise.allSettled([');

export interface RenderOptions {
  /** Print "report: <path>" (default true). Callers that move the report elsewhere print their own path. */
  print?: boolean;
  /** Allure history file (default allurerc's historyPath: reports/history/allure-history.jsonl). */
  historyPath?: string;
  /**
   * What is embedded (scripts/lib/report-content.ts): 'failures' (the default) leaves out the text of
   * passed tests' exchanges, which stays in the run's transcripts; 'full' embeds every exchange.
   */
  evidence?: ReportEvidence;
}

/** A rendering under way: where Allure writes, the slimmed results it reads, what the page needs from them. */
interface Rendering {
  outputDir: string;
  fresh: string;
  results: string;
  slim: ReturnType<typeof reportResults>;
  options: RenderOptions;
  /** `allure generate`'s command line, environment and folder. */
  command: { args: string[]; env: NodeJS.ProcessEnv; cwd: string };
}

function prepareRendering(resultsDir: string, outputDir: string, options: RenderOptions): Rendering | undefined {
  if (!existsSync(resultsDir) || !readdirSync(resultsDir).some((f) => f.endsWith('-result.json'))) {
    console.error(`✖ no Allure test results in ${resultsDir}: nothing to render`);
    return undefined;
  }
  const parent = path.dirname(path.resolve(outputDir));
  mkdirSync(parent, { recursive: true });
  const fresh = path.join(parent, `.${path.basename(outputDir)}-${process.pid}-${Date.now()}`);
  const cli = path.resolve('node_modules', 'allure', 'cli.js');
  // allurerc.mjs reads the history file from PAYMENTS_ALLURE_HISTORY: always handed over, resolved.
  const historyFile = path.resolve(options.historyPath ?? suiteEnvironment().allureHistory);
  const env = { ...process.env, PAYMENTS_ALLURE_HISTORY: historyFile };
  mkdirSync(path.dirname(historyFile), { recursive: true });
  const results = path.join(parent, `.${path.basename(outputDir)}-results-${process.pid}-${Date.now()}`);
  const slim = reportResults(resultsDir, results, options.evidence ?? 'failures');
  return {
    outputDir,
    fresh,
    results,
    slim,
    options,
    command: {
      args: [cli, 'generate', results, '--output', fresh, '--config', path.resolve(__dirname, '..', 'allurerc.mjs')],
      env,
      cwd: path.resolve(__dirname, '..'),
    },
  };
}

/** Renders resultsDir into outputDir/index.html (+ spec.html); the index path, or undefined with the reason printed. */
export function renderReport(
  resultsDir: string,
  outputDir = DEFAULT_OUTPUT,
  options: RenderOptions = {},
): string | undefined {
  const rendering = prepareRendering(resultsDir, outputDir, options);
  if (!rendering) return undefined;
  const { args, env, cwd } = rendering.command;
  const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env, cwd });
  return finishRendering(rendering, run.status, run.stderr || run.stdout);
}

/**
 * renderReport with Allure in a process this one does not wait on: the caller's own work (a secret
 * scan of the run folder) goes on beside it.
 */
export function renderReportAsync(
  resultsDir: string,
  outputDir = DEFAULT_OUTPUT,
  options: RenderOptions = {},
): Promise<string | undefined> {
  const rendering = prepareRendering(resultsDir, outputDir, options);
  if (!rendering) return Promise.resolve(undefined);
  const { args, env, cwd } = rendering.command;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env, cwd });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve(finishRendering(rendering, code, output)));
  });
}

function finishRendering(rendering: Rendering, status: number | null, output: string): string | undefined {
  const { outputDir, fresh, results, slim, options } = rendering;
  try {
    const indexFile = path.join(fresh, 'index.html');
    if (status !== 0 || !existsSync(indexFile)) {
      console.error(`✖ allure generate failed (exit ${status}): ${output.trim().split('\n').slice(-5).join(' ')}`);
      return undefined;
    }
    const html = withLoadingProgress(
      withRulesTitle(
        withSpecLinks(
          readableMetadata(stripUnreadHistory(stripAnalytics(readFileSync(indexFile, 'utf8')))),
          slim.localLinks,
          specHtml(),
        ),
        rulesTitle(slim.rules),
      ),
    );
    const problems = phoningHome(html);
    if (problems.length) {
      console.error(
        `✖ the rendered report would reach the network when opened (${problems.join('; ')}): not published`,
      );
      return undefined;
    }
    writeFileSync(indexFile, html);
    writeFileSync(path.join(fresh, SPEC_PAGE), specHtml());
    rmSync(outputDir, { recursive: true, force: true });
    renameSync(fresh, outputDir);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(results, { recursive: true, force: true });
  }
  const index = path.resolve(outputDir, 'index.html');
  if (options.print !== false) console.log(`report: ${index}`);
  return index;
}

/** The Allure results folder a user means: a run (last, previous, id, folder) or a results folder. */
export function resultsFor(spec: string | undefined): string {
  const given = spec ?? 'last';
  const { runsRoot } = suiteEnvironment();
  const dir = resolveRun(given, runsRoot);
  if (dir && existsSync(path.join(dir, 'allure-results'))) {
    const record = readRunRecord(dir);
    if (record && !executedTests(record))
      throw new Error(`run ${path.basename(dir)} executed no test: there is nothing to report`);
    return path.join(dir, 'allure-results');
  }
  if (dir && statSync(dir).isDirectory() && readdirSync(dir).some((f) => f.endsWith('-result.json'))) return dir;
  throw new Error(
    `no Allure results for "${given}": give last, previous, a run id, a run folder or an Allure results folder; ${availableRunsText(runsRoot)}`,
  );
}

if (require.main === module) {
  const args = process.argv.slice(2).filter((a) => a !== '--full');
  const evidence: ReportEvidence = process.argv.includes('--full') ? 'full' : 'failures';
  try {
    const results = resultsFor(args[0]);
    process.exit(renderReport(results, args[1] ?? DEFAULT_OUTPUT, { evidence }) ? 0 : 1);
  } catch (error) {
    console.error(`✖ ${(error as Error).message}`);
    process.exit(2);
  }
}
