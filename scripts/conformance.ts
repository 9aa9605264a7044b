/**
 * `npm run conformance [-- <playwright args>]`: runs the suite (default: --project=local, the
 * embedded reference), renders the HTML report and proves no secret reached it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPlaywright } from './lib/run-playwright';
import { runFiles } from '../helpers/run-settings';
import { renderReport } from './report';
import { scanForSecrets } from './scan-secrets';

export async function conformance(args: string[]): Promise<{ ok: boolean; counts: { passed: number; failed: number; skipped: number } }> {
  const canary = path.join(mkdtempSync(path.join(os.tmpdir(), 'payments-canary-')), 'secrets.jsonl');
  const run = await runPlaywright(args, { PAYMENTS_SECRET_CANARY: canary });
  // A refused run (no test executed) renders nothing: a report of stale or empty results would lie.
  const report = run.tests.length ? renderReport(runFiles(run.runDir).allureResults) : undefined;
  const scan = scanForSecrets(canary, [run.runDir, 'reports/allure-report']);
  rmSync(path.dirname(canary), { recursive: true, force: true });
  for (const leak of scan.leaks) console.error(`✖ secret (${leak.label}) found in ${leak.file}`);
  console.log(`secret scan: ${scan.secrets} secrets used by the run, ${scan.files} report files scanned, ${scan.leaks.length} leaks`);
  return { ok: run.exitCode === 0 && report !== undefined && scan.leaks.length === 0, counts: run.counts };
}

if (require.main === module) {
  void conformance(process.argv.slice(2)).then(({ ok }) => process.exit(ok ? 0 : 1));
}
