/**
 * `npm test [-- <step name>…] [--serial] [--full]`: everything that must hold before a change lands: typecheck,
 * format and lint, unit tests of the harness, the ledger check, the conformance suite against the
 * reference (report rendered, secret scan), a short stateful exploration of money flows, a secret scan
 * of a run whose tests fail on purpose (failure messages and replay attachments), the suite with the
 * flow-description versions and against a sandbox-like reference, the dialect matrix (the few
 * reference dialects that together hold every value of every dialect field, each with its discovered
 * profile enforced and the local one reported; with --full, a pairwise covering set, every dialect
 * enforced) and the mutation kill matrix. Ends with a table of the steps (wall and CPU time, counts)
 * and the one closing line CI reads.
 *
 * Two lanes: the dialect matrix, the longest step, runs from the start in one; the other steps run in
 * the other, in order, the lane free first taking the next. The local conformance run and the kill
 * matrix that reads it come first among them: they mostly wait on settlements, and beside the
 * dialect matrix its workers take the idle core. Last, the unit tests and the short steps keep both
 * cores busy however the two lanes end. (ci61 ran the kill matrix after the unit tests: it ran alone
 * for its last 200 s, on 0.6 of a core; ci62 gave the other steps two lanes: the three long steps at
 * once took 1,529 CPU-s, against 1,415, and the dialect matrix ended alone.) A
 * step's output is kept in reports/npm-test/<step>.log as it comes and printed whole when the step
 * ends, so two steps never interleave; progress lines and a heartbeat show what is running meanwhile.
 * `--serial` runs one step at a time, in the order listed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROGRESS_PREFIX } from '../runner/reporters/progress';
import { makeRsaPems, shareClientKeys } from '../transport/keys';
import { busyShare, childrenCpuSeconds, machineCpu } from './lib/children-cpu';
import { failureLines } from './lib/failure-lines';
import { cpuFloorLine, type LaneStep, runLanes } from './lib/lanes';
import { planUnitRun, writeUnitGroups } from './lib/unit-groups';

interface Step extends LaneStep {
  command: string[];
  /** What the step runs, in the few words a person reads (default: its command line). */
  shows?: string;
  env?: Record<string, string>;
  /** Variables made while earlier steps run, awaited before the step starts. */
  madeEnv?: () => Promise<Record<string, string>>;
  /** Reads passed/failed/skipped counts from the step's output, when it has them. */
  counts?: (output: string) => { passed: number; failed: number; skipped: number } | undefined;
}

const node = process.execPath;
/**
 * tsx's CommonJS hook only, for the steps' scripts and the unit tests' processes (node --test hands its
 * flags down): `--import tsx` also starts an ESM loader thread and resolves through it, about 0.3 CPU-s
 * more at each process's start, and nothing here needs ESM.
 */
const tsx = ['--require', 'tsx/cjs'];
const LOG_DIR = path.join('reports', 'npm-test');
/** The last line a measured step prints: the CPU seconds it and every process it waited for spent. */
const CPU_LINE = 'npm-test cpu-seconds: ';
const HEARTBEAT_MS = 60_000;

const playwrightCounts = (output: string) => {
  const m = [...output.matchAll(/^(\d+) passed, (\d+) failed, (\d+) skipped(?:, \d+ inconclusive)?$/gm)].at(-1);
  return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3]) } : undefined;
};
const nodeTestCounts = (output: string) => {
  const pass = /^# pass (\d+)$/m.exec(output);
  const fail = /^# fail (\d+)$/m.exec(output);
  const skip = /^# skipped (\d+)$/m.exec(output);
  return pass && fail
    ? { passed: Number(pass[1]), failed: Number(fail[1]), skipped: Number(skip?.[1] ?? 0) }
    : undefined;
};

// tests/unit/ mirrors the rooms: a room's unit tests in its folder, the layout's own at the top.
const unitFiles = (readdirSync('tests/unit', { recursive: true }) as string[])
  .filter((f) => f.endsWith('.test.ts'))
  .sort()
  .map((f) => path.join('tests/unit', f));
/** One group per core: the grouped files mostly compute, each in turn. */
const unit = planUnitRun(unitFiles, path.join(LOG_DIR, 'unit-groups'), os.cpus().length);

/** Unit-test files run at once. */
const UNIT_CONCURRENCY = 3;

/**
 * RSA-2048 keys made ahead for the unit tests' processes (PAYMENTS_KEY_POOL), each taking them in turn
 * where it would make one (tests/unit/support/key-pool.ts): they made about 140 one at a time. A process
 * that needs more makes the rest.
 */
const UNIT_KEY_POOL = 32;
let unitKeys: Promise<Record<string, string>> | undefined;
const unitKeyPool = (): Promise<Record<string, string>> =>
  (unitKeys ??= makeRsaPems(UNIT_KEY_POOL).then((pems) => ({ PAYMENTS_KEY_POOL: JSON.stringify(pems) })));

/** Sequences npm test explores (the local profile's budget is npm run explore's). */
const EXPLORATION_SEQUENCES = 6;

/**
 * The local conformance run's folder: the kill matrix reads its clean project from it instead of
 * running the suite once more without faults.
 */
const conformanceRun = path.join(os.tmpdir(), `payments-npm-test-${process.pid}`, 'local');

/**
 * The dialect matrix: from the start, beside the rest. The few dialects that together hold every
 * value of every dialect field (6 of today's 16), each with its discovered profile enforced and the
 * local profile reported; a table-driven test (one case of a table) in one of the two lanes
 * (--split-lanes), the other tests in both: every test meets every value of every field, though not
 * every pair of values, and each lane meets every dialect with every table. The pairwise set, every
 * dialect enforced, was most of npm test's time and kept it over 8 minutes on 2 cores;
 * `npm test -- --full` (.ci/full, a nightly job's) and `npm run dialects` run it.
 * Four workers, not npm run dialects' eight: beside the other lane's processes, more of them only
 * share the same two cores and spend more CPU doing it.
 */
const dialectMatrix = (full: boolean): Step => ({
  name: 'dialect matrix',
  command: [
    node,
    ...tsx,
    'scripts/dialect-matrix.ts',
    ...(full ? ['--report-values'] : ['--value-cover', '--split-lanes']),
    '--workers',
    '4',
  ],
  counts: playwrightCounts,
});

/** The rest, in this order, each taken by the lane that is free first. */
const rest: Step[] = [
  // TypeScript 7, the native compiler: the same checks as the typescript package (6, whose JS API the
  // unit tests read sources with) in about a third of its CPU.
  { name: 'typecheck', command: [node, 'node_modules/typescript-native/bin/tsc', '-p', 'tsconfig.json', '--noEmit'] },
  // The formatter and the linter (biome.jsonc): 0 findings, warnings included.
  {
    name: 'format and lint',
    command: [node, 'node_modules/@biomejs/biome/bin/biome', 'check', '--error-on-warnings', '.'],
  },
  // First of the long steps: the kill matrix after it reads its clean project.
  {
    name: 'conformance (local reference)',
    command: [node, ...tsx, 'scripts/conformance.ts', '--project=local'],
    env: { PAYMENTS_RUN_DIR: conformanceRun },
    counts: playwrightCounts,
  },
  { name: 'ledger check', command: [node, ...tsx, 'scripts/ledger-check.ts', '--strict'] },
  // After the local conformance run, whose clean project it reads when that run is among the steps;
  // mostly waiting on settlements, so it goes while the dialect matrix keeps both cores busy, not at
  // the end, where a lane that waits leaves a core idle.
  { name: 'mutation kill matrix', command: [node, ...tsx, 'scripts/mutation.ts'] },
  // Three processes at a time: most of the files alone wait on processes they started, not on a
  // core; beside the other lane, three and four took the same time within this machine's drift.
  {
    name: 'unit tests',
    command: [
      node,
      ...tsx,
      // Each test file's process takes the keys made ahead (tests/unit/support/key-pool.ts).
      '--require',
      './tests/unit/support/key-pool.ts',
      '--test',
      `--test-concurrency=${UNIT_CONCURRENCY}`,
      '--test-reporter=tap',
      ...unit.files,
    ],
    shows: `node --test, ${unitFiles.length} files of tests/unit: ${unit.alone.length} that start processes each alone, ${unitFiles.length - unit.alone.length} in ${unit.groups.length} processes; ${UNIT_CONCURRENCY} at a time`,
    counts: nodeTestCounts,
    madeEnv: unitKeyPool,
  },
  // A small budget (3 sequences per lane): the profile's full budget is npm run explore's.
  {
    name: 'exploration (local reference)',
    command: [
      node,
      ...tsx,
      'scripts/explore.ts',
      '--project=local',
      '--sequences',
      String(EXPLORATION_SEQUENCES),
      '--no-report',
    ],
    counts: playwrightCounts,
  },
  { name: 'secret scan of a failing run', command: [node, ...tsx, 'scripts/leak-check.ts'] },
  // What the dialect matrix does not vary: the flow description's version set (spec §9) first, on
  // the files whose requests go to a path version (submissions and status reads; the flows' messages
  // name pacs.008.001.08 whichever version paid), and a reference without its admin API, whose
  // clients are onboarded like a sandbox's, on every file.
  {
    name: 'conformance (local-flow-versions)',
    command: [
      node,
      'node_modules/@playwright/test/cli.js',
      'test',
      '--project=local-flow-versions',
      'tests/versions',
      'tests/payments',
      'tests/status',
      'tests/iso20022',
    ],
    env: { PAYMENTS_ALLURE: '0' },
    counts: playwrightCounts,
  },
  {
    name: 'conformance (local-sandbox-like)',
    command: [node, 'node_modules/@playwright/test/cli.js', 'test', '--project=local-sandbox-like'],
    env: { PAYMENTS_ALLURE: '0' },
    counts: playwrightCounts,
  },
  // A bank's first day: one client with its sort code, the same without it, and a keyless
  // client with the sandbox's predefined tokens, on the files where one client and no key differ
  // (returns and refunds to its own sort code, cancellation, tokens, statuses, submissions, and the
  // further path versions, whose two-client cases must skip).
  {
    name: 'conformance (one client, keyless)',
    command: [
      node,
      'node_modules/@playwright/test/cli.js',
      'test',
      '--project=local-one-client',
      '--project=local-one-client-nomember',
      '--project=local-keyless',
      'tests/returns/return.spec.ts',
      'tests/returns/return-flow.spec.ts',
      'tests/refunds/refund.spec.ts',
      'tests/cancellation',
      'tests/auth/token.spec.ts',
      'tests/status',
      'tests/payments/submission.spec.ts',
      'tests/versions',
    ],
    env: { PAYMENTS_ALLURE: '0' },
    counts: playwrightCounts,
  },
];

/**
 * The steps chosen; when the local conformance run is among them, the kill matrix reads its clean
 * project from it, so it starts after that run ends.
 */
function withCleanRun(steps: readonly Step[]): Step[] {
  const conformance = steps.find((step) => step.name === 'conformance (local reference)');
  return steps.map((step) =>
    step.name === 'mutation kill matrix' && conformance
      ? { ...step, command: [...step.command, '--clean-run', conformanceRun], after: conformance.name }
      : step,
  );
}

/**
 * `--measured <command…>`: runs the command with this process's output and prints, last, the CPU
 * seconds it spent: with two steps running at once, only a process of its own can tell one step's.
 */
function measured(command: string[]): void {
  const result = spawnSync(command[0]!, command.slice(1), { stdio: 'inherit' });
  const cpu = childrenCpuSeconds();
  if (cpu !== undefined) console.log(`${CPU_LINE}${cpu.toFixed(1)}`);
  process.exitCode = result.status ?? 1;
}

interface Outcome {
  step: Step;
  code: number;
  output: string;
  ms: number;
  cpuSeconds?: number;
}

const running = new Map<string, number>();

const withoutCpuLine = (output: string): string => output.replace(new RegExp(`^${CPU_LINE}.*\\n?`, 'm'), '');

/** The step's command as the terminal names it: its own words, else its command line without node. */
const shown = (step: Step): string => step.shows ?? step.command.slice(1).join(' ');

/** Where a step's output is kept whole. */
const logOf = (step: Step): string =>
  path.join(LOG_DIR, `${step.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.log`);

async function run(step: Step): Promise<Outcome> {
  const started = Date.now();
  running.set(step.name, started);
  const log = logOf(step);
  console.log(`\n▶ ${step.name}: ${shown(step)}  (log: ${log})`);
  const file = createWriteStream(log);
  const made = (await step.madeEnv?.()) ?? {};
  // tsx's CommonJS hook only: the wrapper needs no ESM loader thread of its own.
  const child = spawn(node, ['--require', 'tsx/cjs', __filename, '--measured', ...step.command], {
    env: { ...process.env, ...step.env, ...made },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const take = (d: Buffer, progress: boolean) => {
    output += d.toString();
    file.write(d);
    if (!progress) return;
    // A long step shows that it moves: its progress lines as they come, under its name.
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines)
      if (line.trimStart().startsWith(PROGRESS_PREFIX)) console.log(`  [${step.name}] ${line.trim()}`);
  };
  child.stdout.on('data', (d: Buffer) => take(d, true));
  child.stderr.on('data', (d: Buffer) => take(d, false));
  const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  await new Promise((resolve) => file.end(resolve));
  running.delete(step.name);
  const cpu = new RegExp(`^${CPU_LINE}([\\d.]+)$`, 'm').exec(output);
  const printed = withoutCpuLine(output);
  console.log(`\n━━ ${step.name} ━━ ${shown(step)}\n${printed.trimEnd()}`);
  console.log(
    `━━ ${step.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { step, code, output, ms: Date.now() - started, ...(cpu ? { cpuSeconds: Number(cpu[1]) } : {}) };
}

async function main(argv: string[]): Promise<void> {
  const serial = argv.includes('--serial');
  const longest = dialectMatrix(argv.includes('--full'));
  const only = argv.filter((a) => a !== '--serial' && a !== '--full');
  const chosen = (steps: readonly Step[]) =>
    steps.filter((step) => !only.length || only.some((o) => step.name.includes(o)));
  const names = [...rest, longest].map((step) => step.name);
  const unknown = only.filter((o) => !names.some((name) => name.includes(o)));
  if (unknown.length) {
    console.error(
      `✖ no step of npm test is named ${unknown.map((o) => `"${o}"`).join(', ')}; the steps: ${names.join(', ')}\nusage: npm test [-- <part of a step's name>…] [--serial] [--full]`,
    );
    process.exit(2);
  }
  mkdirSync(LOG_DIR, { recursive: true });
  // The run's RSA keys, made once for every step and every run a step starts (the environment hands them down).
  shareClientKeys();
  const started = Date.now();
  const cpuStarted = childrenCpuSeconds();
  const machineStarted = machineCpu();
  const heartbeat = setInterval(() => {
    const now = Date.now();
    const names = [...running].map(([name, since]) => `${name} (${((now - since) / 60_000).toFixed(1)} min)`);
    if (names.length) console.log(`… running: ${names.join(', ')}`);
  }, HEARTBEAT_MS);
  const others = withCleanRun(chosen(rest));
  if (others.some((step) => step.name === 'unit tests')) {
    writeUnitGroups(unit);
    // Made by libuv's thread pool from the start, long before the unit tests begin.
    void unitKeyPool();
  }
  const finished = serial
    ? await runLanes([[]], [...others, ...chosen([longest])], run)
    : await runLanes([chosen([longest]), []], others, run);
  clearInterval(heartbeat);
  rmSync(path.dirname(conformanceRun), { recursive: true, force: true });

  const byOrder = [...others, longest].flatMap((step) => finished.filter((o) => o.step === step));
  const total = { passed: 0, failed: 0, skipped: 0 };
  const table: string[] = [];
  let ok = true;
  for (const result of byOrder) {
    const counts = result.step.counts?.(result.output);
    if (counts) {
      total.passed += counts.passed;
      total.failed += counts.failed;
      total.skipped += counts.skipped;
    }
    const verdict = result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`;
    const cpu = result.cpuSeconds === undefined ? '' : `${result.cpuSeconds.toFixed(1).padStart(7)} CPU-s`;
    table.push(
      `  ${result.step.name.padEnd(36)} ${verdict.padEnd(18)} ${(result.ms / 1000).toFixed(1).padStart(6)} s${cpu}${counts ? `  ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` : ''}`,
    );
    if (result.code !== 0) {
      ok = false;
      if (counts === undefined || counts.failed === 0) total.failed += 1;
    }
  }
  const cpuEnded = childrenCpuSeconds();
  const machineEnded = machineCpu();
  const busy = machineStarted && machineEnded ? busyShare(machineStarted, machineEnded) : undefined;
  const cpuSeconds = cpuStarted === undefined || cpuEnded === undefined ? undefined : cpuEnded - cpuStarted;
  const cpuTotal = cpuSeconds === undefined ? '' : `${cpuSeconds.toFixed(1).padStart(7)} CPU-s`;
  const wallSeconds = (Date.now() - started) / 1000;
  table.push(`  ${'total'.padEnd(36)} ${''.padEnd(18)} ${wallSeconds.toFixed(1).padStart(6)} s${cpuTotal}`);
  if (cpuSeconds !== undefined) table.push(`  ${cpuFloorLine(wallSeconds, cpuSeconds, os.cpus().length, busy)}`);
  // Above the summary, which CI logs end with: why each failed step failed, without scrolling up.
  for (const result of byOrder.filter((o) => o.code !== 0)) {
    console.log(`\nwhy ${result.step.name} failed (its whole output: ${logOf(result.step)}):`);
    for (const line of failureLines(withoutCpuLine(result.output))) console.log(`  ${line}`);
  }
  console.log(
    `\nnpm test summary (${serial ? 'one step at a time' : 'two lanes: the dialect matrix beside the rest'}):\n${table.join('\n')}`,
  );
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  // An exit code, not process.exit: run by npm into a pipe, stdout can still hold the last step's
  // output and this summary when the work is done, and process.exit drops them
  // (`npm test -- 'unit tests' | tail` ended in the middle of the unit tests' log).
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[2] === '--measured') measured(process.argv.slice(3));
else void main(process.argv.slice(2));
