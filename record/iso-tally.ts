/**
 * Whether what the suite sends as valid is valid ISO 20022: every message a worker submits as valid
 * (not a negative case's mutant, nor a reading's or a robustness probe's off-spec body) is held to its
 * version's XSD (messages/iso20022/) and counted per operation, with the first findings of any that
 * fail. A message the suite calls valid that ISO refuses is the suite's own bug: a hub that validates
 * against the XSD refuses it before it reads a field, and every rule its test meant to assess goes dark
 * there. The runner sums the workers' counts into one line of the summary and run.json.
 */
import { readWorkerFiles, writeWorkerFile } from './worker-files';
import type { IsoFinding } from '../messages/iso20022/validate';

export interface IsoSample {
  op: string;
  message: string;
  /** Who sent it: the test's title path, or the background work. */
  by: string;
  findings: IsoFinding[];
}

export interface IsoCounts {
  /** Per operation: messages sent as valid, and how many of them pass their XSD. */
  ops: Record<string, { sent: number; valid: number }>;
  /** The first failures, for a reader to mend the builder. */
  samples: IsoSample[];
}

/** How many failures a worker keeps in full: the first few say what to mend. */
const SAMPLES_KEPT = 5;

const counts: IsoCounts = { ops: {}, samples: [] };

/** One message this process sent as valid, and its XSD's verdict on it. */
export function countIsoVerdict(op: string, valid: boolean, sample: () => Omit<IsoSample, 'op'>): void {
  const entry = (counts.ops[op] ??= { sent: 0, valid: 0 });
  entry.sent++;
  if (valid) entry.valid++;
  else if (counts.samples.length < SAMPLES_KEPT) counts.samples.push({ op, ...sample() });
}

/** Written by each worker when it stops, beside what it created (record/created-count.ts). */
export function writeIsoCounts(dir: string, workerIndex: number, value: IsoCounts = counts): void {
  if (Object.keys(value.ops).length) writeWorkerFile(dir, 'iso', workerIndex, value);
}

/** Every worker's counts summed; undefined when no worker sent a message as valid. */
export function readIsoCounts(dir: string): IsoCounts | undefined {
  const files = readWorkerFiles(dir, 'iso') as IsoCounts[] | undefined;
  if (!files) return undefined;
  const sum: IsoCounts = { ops: {}, samples: [] };
  for (const file of files) {
    for (const [op, n] of Object.entries(file.ops)) {
      const entry = (sum.ops[op] ??= { sent: 0, valid: 0 });
      entry.sent += n.sent;
      entry.valid += n.valid;
    }
    sum.samples.push(...file.samples);
  }
  return sum;
}

/**
 * "ISO 20022: 1,501 of 1,501 messages sent as valid pass their XSD (submitPayment 938, …)", and for
 * each failure kept, the operation, the sender and the first finding.
 */
export function describeIsoCounts(value: IsoCounts): string[] {
  const ops = Object.entries(value.ops).sort((a, b) => b[1].sent - a[1].sent);
  const sent = ops.reduce((n, [, c]) => n + c.sent, 0);
  const valid = ops.reduce((n, [, c]) => n + c.valid, 0);
  const parts = ops.map(([op, c]) => (c.valid === c.sent ? `${op} ${c.sent}` : `${op} ${c.valid} of ${c.sent}`));
  const lines = [
    `ISO 20022: ${valid} of ${sent} messages sent as valid pass their XSD (${parts.join(', ')})${valid === sent ? '' : ': the suite sent invalid ones, see below'}`,
  ];
  for (const s of value.samples) {
    const first = s.findings[0];
    lines.push(
      `  ✘ ${s.op} (${s.message}) by ${s.by}: ${first ? `${first.path || '(document)'} ${first.message}` : 'invalid'}`,
    );
  }
  return lines;
}

/** Whether every message sent as valid passed its XSD. */
export const isoAllValid = (value: IsoCounts): boolean => Object.values(value.ops).every((c) => c.valid === c.sent);
