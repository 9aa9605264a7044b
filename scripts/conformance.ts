/**
 * `npm run conformance [-- <playwright args>]`: runs the suite (default: --project=local, the
 * embedded reference) into its own run folder, reports/runs/<UTC stamp>-<runId>/ (allure-results/,
 * results.json, transcripts/, run.json), renders reports/allure-report/index.html from that run only,
 * and proves no secret reached anything the run wrote.
 *
 * A run refused before any test ran (a profile error, a bad --project, a live profile without
 * confirmation, unset secret variables, a private key that cannot be loaded, an unreachable target,
 * credentials the token endpoint refuses) prints its one-sentence reason, renders
 * nothing, prints no report path, and exits 2 (4 when the token endpoint answered 429 or a 5xx: the
 * infrastructure, inconclusive).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSettings } from '../profile/run-settings';
import { EXIT_INCONCLUSIVE } from '../record/run-folder';
import { runPlaywright, type SuiteCounts } from './lib/run-playwright';
import type * as Report from './report';
import type * as Scan from './scan-secrets';

export interface ConformanceResult {
  ok: boolean;
  /** Exit code for the command: 0 all passed, 1 failures or a leak or no report, 2 refused (nothing ran), 4 no failure but inconclusive tests (infrastructure). */
  exitCode: number;
  counts: SuiteCounts;
  runDir: string;
  report?: string;
}

export async function conformance(args: string[], options: { reportDir?: string } = {}): Promise<ConformanceResult> {
  const { runDir } = runSettings();
  const work = mkdtempSync(path.join(os.tmpdir(), 'payments-canary-'));
  const canary = path.join(work, 'secrets.jsonl');
  try {
    const run = await runPlaywright(
      args,
      { PAYMENTS_SECRET_CANARY: canary, PAYMENTS_RUN_DIR: runDir },
      { command: ['npm run conformance', ...(args.length ? ['--', ...args] : [])].join(' ') },
    );
    if (!run.executed) {
      // The config or the global setup printed why (one sentence); a run that never began has no folder.
      if (!run.record) rmSync(runDir, { recursive: true, force: true });
      // 2: refused (configuration); 4: the target's infrastructure before any test (inconclusive).
      const refused = run.exitCode === 2 || run.exitCode === EXIT_INCONCLUSIVE;
      if (!refused) console.error(`✖ the run executed no test (playwright exit ${run.exitCode}): no report rendered`);
      return { ok: false, exitCode: refused ? run.exitCode : 1, counts: run.counts, runDir };
    }
    // Loaded once the run is over, not before it starts: the runner starts sooner.
    const { DEFAULT_OUTPUT, renderReportAsync } = require('./report') as typeof Report;
    const { describeLeak, scanForSecrets } = require('./scan-secrets') as typeof Scan;
    // The run folder is scanned while Allure renders in a process of its own, then the report.
    const rendering = renderReportAsync(path.join(runDir, 'allure-results'), options.reportDir ?? DEFAULT_OUTPUT, {
      print: false,
    });
    const ranScan = scanForSecrets(canary, [runDir]);
    const report = await rendering;
    const reportScan = report ? scanForSecrets(canary, [path.dirname(report)]) : { leaks: [], files: 0 };
    const scan = {
      leaks: [...ranScan.leaks, ...reportScan.leaks],
      secrets: ranScan.secrets,
      files: ranScan.files + reportScan.files,
    };
    for (const leak of scan.leaks) console.error(`✖ ${describeLeak(leak)}`);
    console.log(
      `secret scan: ${scan.secrets} secrets used by the run, ${scan.files} files scanned (embedded base64 decoded), ${scan.leaks.length} leaks`,
    );
    console.log(`run folder: ${path.resolve(runDir)}`);
    if (report && scan.leaks.length === 0) console.log(`report: ${report}`);
    else if (report) console.error('✖ the report holds a secret: do not share it');
    const ok = run.exitCode === 0 && report !== undefined && scan.leaks.length === 0;
    // Nothing failed, but the infrastructure left some tests without evidence: not a pass either.
    const exitCode = !ok ? 1 : run.counts.inconclusive ? EXIT_INCONCLUSIVE : 0;
    if (exitCode === EXIT_INCONCLUSIVE)
      console.log(`${run.counts.inconclusive} tests inconclusive (infrastructure): exit ${EXIT_INCONCLUSIVE}`);
    return { ok, exitCode, counts: run.counts, runDir, ...(report ? { report } : {}) };
  } finally {
    // The canary holds the run's real secrets: it never outlives the command.
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void conformance(process.argv.slice(2)).then(({ exitCode }) => process.exit(exitCode));
}
