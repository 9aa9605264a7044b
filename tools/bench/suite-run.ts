/** One suite run as the bench measures it: wall time, verdicts, exchanges, peak memory, load, and the probe's records when asked. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPlaywright, type SuiteRun } from '../../scripts/lib/run-playwright';
import { environmentsDir } from '../../profile/profile';
import { runPaths } from '../../record/run-folder';
import { rssSampler } from './process-tree';
import { probeEnvironment, readProbe, type ProbedProcess } from './probe';
import { trackFile } from './cleanup';
import { loadNow, mib, seconds, type Load } from './format';

export interface Measured {
  label: string;
  run: SuiteRun;
  wallMs: number;
  /** Lines of the run's transcripts: exchanges the tests made (client registration not included). */
  exchanges: number;
  peakRssBytes: number;
  load: Load;
  /** The probe's records, for a probed run. */
  processes: ProbedProcess[];
}

export interface SuiteRunOptions {
  project: string;
  workers: number;
  env?: Record<string, string>;
  args?: string[];
  /** Preload the probe (tools/bench/probe.cjs): CPU profiles and HTTP requests of every process. */
  probe?: boolean;
  /** Write Allure results, as `npm run conformance` does (the default). */
  allure?: boolean;
  /** Called with the run folder before it is removed (to render its report, say). */
  inspect?: (runDir: string) => void;
}

function countLines(dir: string): number {
  if (!existsSync(dir)) return 0;
  let lines = 0;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.jsonl')) continue;
    const text = readFileSync(path.join(dir, f), 'utf8');
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  }
  return lines;
}

export async function measureSuite(label: string, options: SuiteRunOptions): Promise<Measured> {
  // A run folder of its own, removed after: the bench keeps only its measures.
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'payments-bench-'));
  const probeDir = path.join(scratch, 'probe');
  process.stdout.write(`bench: ${label} … `);
  const before = loadNow();
  const sampler = rssSampler();
  try {
    const run = await runPlaywright(
      [`--project=${options.project}`, ...(options.args ?? [])],
      {
        PAYMENTS_ALLURE: options.allure === false ? '0' : '1',
        PAYMENTS_WORKERS: String(options.workers),
        PAYMENTS_RUN_DIR: path.join(scratch, 'run'),
        ...(options.probe ? probeEnvironment(probeDir) : {}),
        ...options.env,
      },
      { quiet: true },
    );
    const peakRssBytes = sampler.stop();
    const measured: Measured = {
      label,
      run,
      wallMs: run.durationMs,
      exchanges: countLines(runPaths(run.runDir).transcripts),
      peakRssBytes,
      load: { before, after: loadNow() },
      processes: options.probe ? readProbe(probeDir) : [],
    };
    options.inspect?.(run.runDir);
    const c = run.counts;
    console.log(
      `${seconds(measured.wallMs)}, ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped, ${measured.exchanges} exchanges, peak RSS ${mib(peakRssBytes)}, load ${before.toFixed(2)}`,
    );
    return measured;
  } finally {
    sampler.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A copy of the local profile under environments/bench-*.json that polls for `timeoutMs`, removed when the bench ends. */
export function writeBenchProfile(name: string, timeoutMs: number): void {
  const local = JSON.parse(readFileSync(path.join(environmentsDir, 'local.json'), 'utf8')) as {
    polling: Record<string, number>;
  };
  const file = path.join(environmentsDir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        ...local,
        name,
        description: `Temporary profile of npm run bench (${name}); deleted when the bench ends.`,
        polling: { ...local.polling, timeoutMs },
      },
      null,
      2,
    ),
  );
  trackFile(file);
}

/** "file › describe › title" → outcome, without the project name (shards and runs use the same one anyway). */
export function verdicts(m: Measured): Map<string, string> {
  return new Map(m.run.tests.map((t) => [t.title, t.outcome]));
}

export const sameCounts = (a: Measured, b: Measured): boolean =>
  a.run.counts.passed === b.run.counts.passed &&
  a.run.counts.failed === b.run.counts.failed &&
  a.run.counts.skipped === b.run.counts.skipped;
export const countsText = (m: Measured): string =>
  `${m.run.counts.passed}/${m.run.counts.failed}/${m.run.counts.skipped}`;
export const failureList = (m: Measured): string => {
  const failed = m.run.tests.filter((t) => t.outcome === 'failed');
  return failed.length
    ? `; failed: ${failed
        .slice(0, 8)
        .map((f) => f.title)
        .join('; ')}${failed.length > 8 ? '; …' : ''}`
    : '';
};

/** The longest tests of a run (every project and retry summed): where the wall time goes. */
export function slowestTests(m: Measured, n: number, atLeastMs: number): { slowest: string[]; atLeast: number } {
  const bySpec = new Map<string, number>();
  for (const t of m.run.tests) bySpec.set(t.title, (bySpec.get(t.title) ?? 0) + t.durationMs);
  const found = [...bySpec].sort((a, b) => b[1] - a[1]);
  return {
    slowest: found.slice(0, n).map(([title, ms]) => `${title} (${seconds(ms)})`),
    atLeast: found.filter(([, ms]) => ms >= atLeastMs).length,
  };
}
