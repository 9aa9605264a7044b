/**
 * What the full local run's target leaves for the suite's own work: as many empty tests as the run
 * has, in as many files, through the same runner, worker count, Allure reporter (the run's own,
 * runner/reporters/allure.ts, with the run's options) and report rendering, and nothing else (no
 * reference, no key, no request, none of the suite's other reporters). Measured in scratch folders the
 * bench removes after.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { childrenCpuSeconds } from '../../scripts/lib/children-cpu';
import { renderReport } from '../../scripts/report';
import { trackChild, untrackChild } from './cleanup';
import { loadNow, seconds, type Load } from './format';

export interface FloorShape {
  tests: number;
  files: number;
  workers: number;
}

export interface FrameworkFloor {
  /** From the runner's start to its exit: Playwright and allure-playwright over the empty tests. */
  runMs: number;
  /** Allure's rendering of their results, as `npm run conformance` renders a run's. */
  renderMs: number | undefined;
  /** CPU of the runner and its workers, the rendering not included (Linux). */
  cpuSeconds: number | undefined;
  passed: number;
  load: Load;
}

/** Spreads `tests` over `files` as evenly as they go: the first files take one more. */
export function testsPerFile(tests: number, files: number): number[] {
  const base = Math.floor(tests / files);
  return Array.from({ length: files }, (_, i) => base + (i < tests % files ? 1 : 0));
}

/** Plain CommonJS with absolute requires: the scratch folder has no node_modules of its own. */
function writeScratchSuite(dir: string, shape: FloorShape, resultsDir: string): string {
  const playwright = require.resolve('@playwright/test');
  // The run's own Allure reporter (allure-playwright, writing off the runner's thread), as the run configures it.
  const allureReporter = path.resolve(__dirname, '../../runner/reporters/allure.ts');
  const testsDir = path.join(dir, 'tests');
  mkdirSync(testsDir);
  for (const [i, count] of testsPerFile(shape.tests, shape.files).entries())
    writeFileSync(
      path.join(testsDir, `empty-${i}.spec.js`),
      `const { test, expect } = require(${JSON.stringify(playwright)});\n` +
        `for (let i = 0; i < ${count}; i++) test(\`empty \${i}\`, () => expect(i).toBeGreaterThan(-1));\n`,
    );
  const config = path.join(dir, 'playwright.config.js');
  writeFileSync(
    config,
    `module.exports = require(${JSON.stringify(playwright)}).defineConfig(${JSON.stringify({
      testDir: testsDir,
      outputDir: path.join(dir, 'test-results'),
      fullyParallel: true,
      workers: shape.workers,
      reporter: [['dot'], [allureReporter, { resultsDir, detail: true, suiteTitle: true }]],
    })});\n`,
  );
  return config;
}

export async function measureFrameworkFloor(shape: FloorShape): Promise<FrameworkFloor> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'payments-bench-floor-'));
  process.stdout.write(`bench: the framework alone, ${shape.tests} empty tests in ${shape.files} files … `);
  try {
    const resultsDir = path.join(scratch, 'allure-results');
    const config = writeScratchSuite(scratch, shape, resultsDir);
    const before = loadNow();
    const cpuBefore = childrenCpuSeconds();
    const t0 = performance.now();
    let output = '';
    const cli = path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'cli.js');
    const child = spawn(process.execPath, [cli, 'test', '-c', config], {
      cwd: scratch,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    trackChild(child);
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exitCode: number = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    untrackChild(child);
    const runMs = performance.now() - t0;
    const cpuAfter = childrenCpuSeconds();
    const passed = Number(/(\d+) passed/.exec(output)?.[1] ?? 0);
    if (exitCode !== 0) throw new Error(`the empty tests exited ${exitCode}:\n${output.slice(-2000)}`);
    const t1 = performance.now();
    const index = renderReport(resultsDir, path.join(scratch, 'report'), {
      print: false,
      historyPath: path.join(scratch, 'history.jsonl'),
    });
    const renderMs = index ? performance.now() - t1 : undefined;
    const cpuSeconds = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
    console.log(
      `${seconds(runMs)} and ${renderMs === undefined ? 'no report' : `${seconds(renderMs)} rendering`}, ${passed} passed${cpuSeconds !== undefined ? `, ${cpuSeconds.toFixed(1)} CPU-s` : ''}, load ${before.toFixed(2)}`,
    );
    return { runMs, renderMs, cpuSeconds, passed, load: { before, after: loadNow() } };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
