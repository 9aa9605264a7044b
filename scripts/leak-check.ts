/**
 * The secret scan of a clean run proves little: failure paths (assertion messages, replay and curl
 * attachments) only run when tests fail. This check injects faults so that token and SCA tests fail,
 * renders the report, and scans every file of it (and every attachment it embeds) for the secrets the run used.
 * Then it opens that report in headless Chromium (scripts/check-report-offline.ts), as a reader of a
 * failure would: a failed test's exchanges are steps titled with their answer, the one its failed
 * check judged a failed step, its replay under "Reproduce", and a rule's spec link opens the spec at
 * its section; so does a passed test's. Without Chromium that part is skipped, saying so.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPlaywright } from './lib/run-playwright';
import { renderReport } from './report';
import { describeLeak, scanForSecrets } from './scan-secrets';
import { runPaths } from '../record/run-folder';
import { faultCatalogue, type FaultName } from '../reference/faults';
import { CHROMIUM, checkReportOffline, launchChromium } from './check-report-offline';

// Typed by the catalogue's names: a renamed fault is a type error, not a crash at run time.
const FAULTS: readonly FaultName[] = [
  'token-ignores-kid',
  'token-accepts-alg-none',
  'sca-ignores-iss',
  'status-cross-client-readable',
];
const TESTS = ['tests/auth/token.spec.ts', 'tests/payments/headers-and-sca.spec.ts', 'tests/status/status.spec.ts'];
/**
 * The tests of the faults' rules only: their failures are the paths the scan is for, and those that
 * pass keep a passed test's evidence in the report; the files' other tests repeated both.
 */
const GREP = `@(${faultCatalogue
  .filter((f) => FAULTS.includes(f.name))
  .map((f) => f.rule)
  .join('|')})\\b`;

async function main(): Promise<void> {
  const root = 'reports/leak-check';
  rmSync(root, { recursive: true, force: true });
  const canary = path.join(mkdtempSync(path.join(os.tmpdir(), 'payments-leak-')), 'secrets.jsonl');
  // strict-422 issues opaque access tokens: short enough to fit whole in an assertion message.
  // The run folder (allure-results, results.json, transcripts, test-results, run.json) under root.
  const run = await runPlaywright(
    ['--project=local-strict-422', '--grep', GREP, ...TESTS],
    {
      PAYMENTS_CLIENT_FAULTS: FAULTS.join(','),
      PAYMENTS_SECRET_CANARY: canary,
      PAYMENTS_RUN_DIR: `${root}/run`,
    },
    { quiet: true },
  );
  // A history of its own: the injected failures must not show in the trend of real runs.
  const report = renderReport(runPaths(run.runDir).allureResults, `${root}/report`, {
    historyPath: `${root}/history.jsonl`,
  });
  const scan = scanForSecrets(canary, [root]);
  rmSync(path.dirname(canary), { recursive: true, force: true });
  for (const leak of scan.leaks) console.error(`✖ ${describeLeak(leak)}`);
  console.log(
    `leak check: ${run.counts.failed} tests failed under faults ${FAULTS.join(', ')}; ${scan.secrets} secrets, ${scan.files} files scanned, ${scan.leaks.length} leaks`,
  );
  const reading = report ? await readAsReader(report) : false;
  // Without failures the failure paths were not exercised: the check would prove nothing.
  const ok = run.counts.failed > 0 && report !== undefined && scan.secrets > 0 && scan.leaks.length === 0 && reading;
  if (!ok && run.counts.failed === 0)
    console.error('✖ no test failed under the injected faults: the failure paths were not exercised');
  process.exit(ok ? 0 : 1);
}

/** The failing run's report read in Chromium: true when it reads as it should, or when no Chromium is there to say. */
async function readAsReader(report: string): Promise<boolean> {
  if (!existsSync(CHROMIUM)) {
    console.log(`report reading: skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
    return true;
  }
  const { browser, cleanup } = await launchChromium();
  try {
    const check = await checkReportOffline(report, browser);
    for (const line of check.seen) console.log(`  ${line}`);
    const problems = [
      ...check.problems,
      ...check.external.map((e) => `a request to the network: ${e}`),
      ...(check.read.failed ? [] : ['no failed test with an exchange step was read']),
      ...(check.read.passed ? [] : ['no passed test with an exchange step was read']),
    ];
    for (const problem of problems) console.error(`✖ report reading: ${problem}`);
    if (!problems.length)
      console.log(
        `report reading: a failed and a passed test read as they should (steps titled with their answers, the judged one failed, Reproduce, spec links open their section); overview in ${check.overviewMs[0]} ms`,
      );
    return problems.length === 0;
  } finally {
    await cleanup();
  }
}

void main();
