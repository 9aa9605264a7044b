/**
 * What a run creates at its target: every submission (payment, return, refund, cancellation) the
 * target accepted for the first time, counted per operation in each worker and summed by the runner.
 * A remote sandbox, and live above all, has a budget of payments: the run's summary and run.json say
 * how much of it a run spent, the pool's fills and background work included.
 * An accepted repeat of bytes accepted already (an idempotent repeat) creates nothing and is not counted.
 */
import { readWorkerFiles, writeWorkerFile } from './worker-files';

/** Accepted submissions by operation (submitPayment, returnPayment, refund, cancel). */
export type CreatedCounts = Record<string, number>;

const created: CreatedCounts = {};

/** This process's submission of `op` was accepted, and its bytes were new. */
export function countCreated(op: string): void {
  created[op] = (created[op] ?? 0) + 1;
}

/** What this process created so far. */
export const createdInProcess = (): Readonly<CreatedCounts> => created;

/** Written by each worker when it stops, beside its request count (record/run-floor.ts). */
export function writeCreatedCount(dir: string, workerIndex: number, counts: Readonly<CreatedCounts> = created): void {
  if (Object.keys(counts).length) writeWorkerFile(dir, 'created', workerIndex, counts);
}

/** Every worker's creations summed; undefined when no worker created anything. */
export function readCreatedCounts(dir: string): CreatedCounts | undefined {
  const files = readWorkerFiles(dir, 'created') as CreatedCounts[] | undefined;
  if (!files) return undefined;
  const sum: CreatedCounts = {};
  for (const counts of files) for (const [op, n] of Object.entries(counts)) sum[op] = (sum[op] ?? 0) + (Number(n) || 0);
  return sum;
}

export const totalCreated = (counts: Readonly<CreatedCounts>): number =>
  Object.values(counts).reduce((a, b) => a + b, 0);

/** "created at the target: 1,324 submissions (submitPayment 1,000, returnPayment 200, …)". */
export function describeCreated(counts: Readonly<CreatedCounts>): string {
  const parts = Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([op, n]) => `${op} ${n}`);
  return `created at the target: ${totalCreated(counts)} accepted submissions (${parts.join(', ')})`;
}
