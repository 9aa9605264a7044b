/**
 * `npm test`: everything that must hold before a change lands, in order of cost: typecheck, format and
 * lint, unit tests of the harness, the ledger check, the conformance suite against the reference (report rendered,
 * secret scan), a short stateful exploration of money flows, a secret scan of a run whose tests fail
 * on purpose (failure messages and replay attachments), the suite with the flow-description versions
 * and against a sandbox-like reference, the dialect matrix (a pairwise covering set of reference
 * dialects, each with its discovered profile enforced and the local one reported) and the mutation
 * kill matrix. Ends with a table of the steps (wall and CPU time, counts) and the one closing line CI
 * reads.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Reads passed/failed/skipped counts from the step's output, when it has them. */
  counts?: (output: string) => { passed: number; failed: number; skipped: number } | undefined;
}

const node = process.execPath;
const tsx = ['--import', 'tsx'];

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

/** Sequences npm test explores (the local profile's budget is npm run explore's). */
const EXPLORATION_SEQUENCES = 6;

const steps: Step[] = [
  { name: 'typecheck', command: [node, 'node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'] },
  // The formatter and the linter (biome.jsonc): 0 findings, warnings included.
  {
    name: 'format and lint',
    command: [node, 'node_modules/@biomejs/biome/bin/biome', 'check', '--error-on-warnings', '.'],
  },
  // Three files at a time: most unit tests wait on a reference they started, not on a core.
  {
    name: 'unit tests',
    command: [node, ...tsx, '--test', '--test-concurrency=3', '--test-reporter=tap', ...unitFiles],
    counts: nodeTestCounts,
  },
  { name: 'ledger check', command: [node, ...tsx, 'scripts/ledger-check.ts', '--strict'] },
  {
    name: 'conformance (local reference)',
    command: [node, ...tsx, 'scripts/conformance.ts', '--project=local'],
    counts: playwrightCounts,
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
  // What the dialect matrix does not vary: the flow description's version set (spec §9), and a
  // reference without its admin API, whose clients are onboarded like a sandbox's.
  ...['local-flow-versions', 'local-sandbox-like'].map(
    (profile): Step => ({
      name: `conformance (${profile})`,
      command: [node, 'node_modules/@playwright/test/cli.js', 'test', `--project=${profile}`],
      env: { PAYMENTS_ALLURE: '0' },
      counts: playwrightCounts,
    }),
  ),
  // A bank's first day: one client with its sort code, the same without it, and a keyless
  // client with the sandbox's predefined tokens, on the files where one client and no key differ
  // (returns and refunds to its own sort code, cancellation, tokens, statuses, submissions).
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
    ],
    env: { PAYMENTS_ALLURE: '0' },
    counts: playwrightCounts,
  },
  { name: 'dialect matrix', command: [node, ...tsx, 'scripts/dialect-matrix.ts'], counts: playwrightCounts },
  { name: 'mutation kill matrix', command: [node, ...tsx, 'scripts/mutation.ts'] },
];

/**
 * CPU seconds of the processes this one has waited for, children and what they waited for (Linux
 * /proc: cutime + cstime); undefined elsewhere. On a shared machine a step's wall time says little,
 * its CPU time is what a quiet machine would spend.
 */
function childrenCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5) (cutime, cstime), counted from the state field, which is the 3rd;
    // in clock ticks, which /proc gives in USER_HZ (100 a second).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

async function run(step: Step): Promise<{ code: number; output: string; ms: number; cpuSeconds?: number }> {
  const started = Date.now();
  const cpuBefore = childrenCpuSeconds();
  console.log(`\n━━ ${step.name} ━━ ${step.command.slice(1).join(' ')}`);
  const child = spawn(step.command[0]!, step.command.slice(1), {
    env: { ...process.env, ...step.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    process.stdout.write(d);
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
    process.stderr.write(d);
  });
  const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  const cpuAfter = childrenCpuSeconds();
  return {
    code,
    output,
    ms: Date.now() - started,
    ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuSeconds: cpuAfter - cpuBefore } : {}),
  };
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const total = { passed: 0, failed: 0, skipped: 0 };
  const table: string[] = [];
  const started = Date.now();
  const cpuStarted = childrenCpuSeconds();
  let ok = true;
  for (const step of steps) {
    if (only.length && !only.some((o) => step.name.includes(o))) continue;
    const result = await run(step);
    const counts = step.counts?.(result.output);
    if (counts) {
      total.passed += counts.passed;
      total.failed += counts.failed;
      total.skipped += counts.skipped;
    }
    const verdict = result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`;
    const cpu = result.cpuSeconds === undefined ? '' : `${result.cpuSeconds.toFixed(1).padStart(7)} CPU-s`;
    table.push(
      `  ${step.name.padEnd(36)} ${verdict.padEnd(18)} ${(result.ms / 1000).toFixed(1).padStart(6)} s${cpu}${counts ? `  ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` : ''}`,
    );
    if (result.code !== 0) {
      ok = false;
      if (counts === undefined || counts.failed === 0) total.failed += 1;
    }
  }
  const cpuEnded = childrenCpuSeconds();
  const cpuTotal =
    cpuStarted === undefined || cpuEnded === undefined ? '' : `${(cpuEnded - cpuStarted).toFixed(1).padStart(7)} CPU-s`;
  table.push(
    `  ${'total'.padEnd(36)} ${''.padEnd(18)} ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s${cpuTotal}`,
  );
  console.log(`\nnpm test summary:\n${table.join('\n')}`);
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exit(ok ? 0 : 1);
}

void main();
