/**
 * Where the time of a full local run goes: the run once more with the probe in every process (CPU
 * profiles of the runner, the workers and the reference; every HTTP request), read as CPU per
 * activity, as CPU and peak memory per kind of process, and as a timeline of each worker up to its
 * first request. One target is read from it:
 * ISO 20022 validation's share of the run (#36: under 5 %).
 */
import { measureSuite, type Measured } from './suite-run';
import { breakdown, type Breakdown } from './breakdown';
import { WORKERS } from './targets';
import { mib, type Row } from './format';
import type { ProbedProcess, ProcessKind } from './probe';

export interface ProfileResult {
  run: Measured;
  breakdown: Breakdown;
  rows: Row[];
}

/** The share of ISO 20022 validation in every process's CPU: on a machine the run keeps busy, its share of the wall time too. */
export const ISO_SHARE_TARGET = 0.05;

export function isoShareRow(b: Breakdown, load: Measured['load']): Row {
  const busy = b.cpu.filter((r) => r.activity !== 'idle');
  const all = busy.reduce((sum, r) => sum + r.runner + r.workers + r.reference, 0);
  const iso = b.cpu.find((r) => r.activity === 'ISO 20022 validation');
  const isoMs = iso ? iso.runner + iso.workers + iso.reference : 0;
  const share = all > 0 ? isoMs / all : 0;
  return {
    measure:
      'ISO 20022 validation (the quick proof, the mapping and libxml2 with its schemas, in the workers and the reference): its share of the CPU of every process of the profiled full local run',
    value: `${(isoMs / 1000).toFixed(2)} of ${(all / 1000).toFixed(1)} CPU-s = ${(share * 100).toFixed(1)} %`,
    target: `< ${ISO_SHARE_TARGET * 100} %`,
    ok: all > 0 ? share < ISO_SHARE_TARGET : undefined,
    load,
  };
}

const KINDS: readonly ProcessKind[] = ['runner', 'worker', 'reference'];

/**
 * Each kind of process of the run, as the system counted it: CPU seconds, and the peak resident set
 * of its largest one (a sum of peaks would add moments that never met; the run's peak is the targets
 * part's): which processes the CPU floor (CPU ÷ cores) and the memory target are made of.
 */
export function processRow(processes: readonly ProbedProcess[], load: Measured['load']): Row {
  const parts = KINDS.flatMap((kind) => {
    const of = processes.filter((p) => p.kind === kind);
    if (!of.length) return [];
    const cpu = of.reduce((sum, p) => sum + p.cpuSeconds, 0);
    const peak = Math.max(...of.map((p) => p.peakRssBytes));
    return [
      `${of.length === 1 ? kind : `${of.length} ${kind}s`} ${cpu.toFixed(1)} CPU-s, peak ${mib(peak)}${of.length > 1 ? ' (the largest)' : ''}`,
    ];
  });
  return {
    measure:
      'the profiled run by process (CPU and peak resident memory as the system counts them, the profiler included)',
    value: parts.join('; '),
    target: '—',
    ok: undefined,
    load,
  };
}

export async function profilePart(): Promise<ProfileResult> {
  const run = await measureSuite(`profiled full local run, ${WORKERS} workers`, {
    project: 'local',
    workers: WORKERS,
    probe: true,
  });
  const b = breakdown(run.processes, run.run.tests);
  return { run, breakdown: b, rows: [isoShareRow(b, run.load), processRow(run.processes, run.load)] };
}
