/**
 * `--only scale`: the suite at 1 worker, cut into shards (merged verdicts must equal one run's), and
 * at 8 workers against 100 ms of latency per request (the overlap of waits).
 */
import { measureSuite, countsText, failureList, sameCounts, verdicts, type Measured } from './suite-run';
import { ratio, seconds, type Row } from './format';
import { LATENCY_MS, LATENCY_WORKERS, SHARDS, TARGET_LATENCY_RATIO, WORKERS } from './targets';

export interface ScaleResult {
  runs: Measured[];
  rows: Row[];
  notes: string[];
}

function compareVerdicts(a: Map<string, string>, b: Map<string, string>): string[] {
  const diffs: string[] = [];
  for (const title of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(title) ?? 'absent';
    const y = b.get(title) ?? 'absent';
    if (x !== y) diffs.push(`${title}: single run ${x}, shards ${y}`);
  }
  return diffs.sort();
}

/** `baseline`: a full run at WORKERS workers already measured (the targets part), else one is made. */
export async function scalePart(baseline: Measured | undefined): Promise<ScaleResult> {
  const rows: Row[] = [];
  const notes: string[] = [];
  const two =
    baseline ?? (await measureSuite(`full local run, ${WORKERS} workers`, { project: 'local', workers: WORKERS }));
  const one = await measureSuite('1 worker', { project: 'local', workers: 1 });
  rows.push({
    measure: `speed-up, ${WORKERS} workers vs 1`,
    value: ratio(one.wallMs / two.wallMs),
    target: '—',
    ok: undefined,
    load: one.load,
  });
  rows.push({
    measure: `exchanges per second (${WORKERS} workers, wall time)`,
    value: (two.exchanges / (two.wallMs / 1000)).toFixed(0),
    target: '—',
    ok: undefined,
  });

  const shards: Measured[] = [];
  for (let i = 1; i <= SHARDS; i++)
    shards.push(
      await measureSuite(`shard ${i}/${SHARDS} (${WORKERS} workers)`, {
        project: 'local',
        workers: WORKERS,
        args: [`--shard=${i}/${SHARDS}`],
      }),
    );
  const merged = new Map<string, string>();
  for (const s of shards) for (const [title, outcome] of verdicts(s)) merged.set(title, outcome);
  const diffs = compareVerdicts(verdicts(two), merged);
  rows.push({
    measure: `${SHARDS} shards merged: same verdicts as one run (${merged.size} vs ${verdicts(two).size} tests)`,
    value: diffs.length ? `${diffs.length} differ` : 'same',
    target: 'same',
    ok: diffs.length === 0,
  });
  rows.push({
    measure: `slowest shard vs one run (shards in parallel on ${SHARDS} machines)`,
    value: ratio(Math.max(...shards.map((s) => s.wallMs)) / two.wallMs),
    target: '—',
    ok: undefined,
  });
  for (const d of diffs.slice(0, 15)) notes.push(`shard verdict differs: ${d}`);
  if (diffs.length > 15) notes.push(`… and ${diffs.length - 15} more verdict differences`);

  const latency = await measureSuite(`${LATENCY_WORKERS} workers, latency ${LATENCY_MS} ms`, {
    project: 'local',
    workers: LATENCY_WORKERS,
    env: { REF_LATENCY_MS: String(LATENCY_MS) },
  });
  const ideal = (latency.exchanges * LATENCY_MS) / LATENCY_WORKERS + two.wallMs;
  rows.push({
    measure: `latency run / ideal (${latency.exchanges} × ${LATENCY_MS} ms / ${LATENCY_WORKERS} + ${seconds(two.wallMs)} = ${seconds(ideal)})`,
    value: ratio(latency.wallMs / ideal),
    target: `≤ ${TARGET_LATENCY_RATIO}`,
    ok: latency.wallMs / ideal <= TARGET_LATENCY_RATIO,
    load: latency.load,
  });
  if (!sameCounts(two, latency))
    notes.push(
      `latency run verdicts differ from the ${WORKERS}-worker run: ${countsText(latency)} vs ${countsText(two)}${failureList(latency)}`,
    );
  return { runs: [one, ...shards, latency], rows, notes };
}
