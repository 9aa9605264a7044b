/**
 * `npm run bench [-- --only targets,throttled,history,profile,scale,throughput | --all] [--quick]`: how
 * fast the suite runs, on this machine, with its load beside every number. By default:
 *  - targets (tools/bench/targets-part.ts): a full local run as a person waits for it (`npm run
 *    conformance`, the report and the secret scan included, the median of three, split into its
 *    phases), the suite run alone and its peak memory, the requests of a one-test run, what a 10 s
 *    settlement delay adds;
 *  - throttled (throttled-part.ts): the throttled sandboxes, undeclared and declared, each against
 *    the floor it prints (its busiest rate limit bucket);
 *  - history (history.ts): that run's history read and checked, and a synthetic one of a million
 *    events, each in a process of its own (time and peak memory);
 *  - profile (profile-part.ts): the run once more with every process profiled, read as CPU per
 *    activity, CPU and peak memory per process, and a timeline of each worker up to its first request.
 * `--all` adds scale (1 worker, shards, latency) and throughput (the reference against bare fastify).
 * Prints the report and writes it to reports/bench/latest.md. Missed targets are findings, not a
 * broken bench: the exit code is 0 unless a measurement failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cliMain } from './lib/cli';
import { parseBenchArgs, USAGE } from '../tools/bench/options';
import { targetsPart } from '../tools/bench/targets-part';
import { historyPart } from '../tools/bench/history';
import { profilePart } from '../tools/bench/profile-part';
import { throttledPart } from '../tools/bench/throttled-part';
import { scalePart } from '../tools/bench/scale-part';
import { throughputPart } from '../tools/bench/throughput';
import { renderBench, type BenchResults } from '../tools/bench/render';
import { cleanUp } from '../tools/bench/cleanup';

const OUTPUT = path.join('reports', 'bench', 'latest.md');

async function bench(): Promise<boolean> {
  const options = parseBenchArgs(process.argv.slice(2));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cleanUp();
      process.exit(130);
    });
  }
  const startedAt = new Date();
  const t0 = performance.now();
  const loadAtStart = os.loadavg();
  if (loadAtStart[0]! > os.cpus().length * 0.5)
    console.warn(
      `bench: load average ${loadAtStart[0]!.toFixed(2)} on ${os.cpus().length} cores: other work is running, numbers will be noisy`,
    );
  try {
    const results: BenchResults = {
      startedAt,
      totalMs: 0,
      loadAtStart,
      parts: [...options.parts],
      rows: [],
      runs: [],
      breakdown: undefined,
      throughput: undefined,
      notes: [],
    };
    const targets = options.parts.has('targets') ? await targetsPart() : undefined;
    if (targets) {
      results.rows.push(...targets.rows);
      results.runs.push(...targets.runs);
      results.notes.push(...targets.notes);
    }
    if (options.parts.has('throttled')) {
      const throttled = await throttledPart();
      results.rows.push(...throttled.rows);
      results.notes.push(...throttled.notes);
    }
    if (options.parts.has('history')) {
      const history = await historyPart(targets?.history);
      results.rows.push(...history.rows);
      results.notes.push(...history.notes);
    }
    if (options.parts.has('profile')) {
      const profiled = await profilePart();
      results.breakdown = profiled;
      results.runs.push(profiled.run);
      results.rows.push(...profiled.rows);
    }
    if (options.parts.has('scale')) {
      const scale = await scalePart(targets?.full);
      results.rows.push(...scale.rows);
      results.runs.push(...scale.runs);
      results.notes.push(...scale.notes);
    }
    if (options.parts.has('throughput')) {
      results.throughput = await throughputPart(options);
      results.rows.push(...results.throughput.rows);
      results.notes.push(...results.throughput.notes);
    }
    results.totalMs = performance.now() - t0;
    const text = renderBench(results);
    console.log(`\n${text}`);
    mkdirSync(path.dirname(OUTPUT), { recursive: true });
    writeFileSync(OUTPUT, text);
    console.log(`bench: written to ${OUTPUT}`);
    console.log(
      `bench: ${results.rows.filter((r) => r.ok === true).length} targets met, ${results.rows.filter((r) => r.ok === false).length} missed`,
    );
    return true;
  } finally {
    cleanUp();
  }
}

cliMain(USAGE, bench);
