/**
 * Renders reports/allure-results into one self-contained HTML file (opens from disk). Allure 3 puts a
 * report into a subfolder when the output folder is not empty, so the output is cleared first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export function renderReport(resultsDir = 'reports/allure-results', outputDir = 'reports/allure-report'): string | undefined {
  if (!existsSync(resultsDir) || readdirSync(resultsDir).length === 0) {
    console.error(`no Allure results in ${resultsDir}: run the suite first (npm run conformance)`);
    return undefined;
  }
  rmSync(outputDir, { recursive: true, force: true });
  mkdirSync('reports/history', { recursive: true });
  const cli = path.join('node_modules', 'allure', 'cli.js');
  const run = spawnSync(process.execPath, [cli, 'generate', resultsDir, '--output', outputDir], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (run.status !== 0) {
    console.error(`allure generate failed (exit ${run.status}):\n${run.stdout}`);
    return undefined;
  }
  const index = path.resolve(outputDir, 'index.html');
  console.log(`report: ${index}`);
  return index;
}

if (require.main === module) {
  const [results, output] = process.argv.slice(2);
  process.exit(renderReport(results, output) ? 0 : 1);
}
