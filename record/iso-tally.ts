/**
 * ISO 20022 over the whole run, both ways. What the suite sends as valid: every message a worker
 * submits as valid (not a negative case's mutant, nor a reading's or a robustness probe's off-spec
 * body) is held to its version's XSD (messages/iso20022/) and counted per operation, with the first
 * findings of any that fail; one the suite calls valid that ISO refuses is the suite's own bug (a hub
 * that validates against the XSD refuses it before it reads a field, and every rule its test meant to
 * assess goes dark there). What the target answers: every pacs.002, camt.029 and incoming pacs.008 it
 * serves is counted the same way, which the summary reports whatever the profile says (the
 * assumption ISO-01 is judged by its tests). The runner sums the workers' counts into the summary and
 * run.json.
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
  /** Per operation: the target's answers read, and how many of them pass their XSD. */
  answers?: Record<string, { sent: number; valid: number }>;
  /** The first answers that failed, for a reader of the target's report. */
  answerSamples?: IsoSample[];
}

/** How many failures a worker keeps in full: the first few say what to mend. */
const SAMPLES_KEPT = 5;

const counts: Required<IsoCounts> = { ops: {}, samples: [], answers: {}, answerSamples: [] };

/**
 * One message this process sent as valid (`sent`), or one answer of the target it read (`answer`),
 * and its XSD's verdict on it.
 */
export function countIsoVerdict(
  kind: 'sent' | 'answer',
  op: string,
  valid: boolean,
  sample: () => Omit<IsoSample, 'op'>,
): void {
  const [byOp, samples] = kind === 'sent' ? [counts.ops, counts.samples] : [counts.answers, counts.answerSamples];
  const entry = (byOp[op] ??= { sent: 0, valid: 0 });
  entry.sent++;
  if (valid) entry.valid++;
  else if (samples.length < SAMPLES_KEPT) samples.push({ op, ...sample() });
}

/** The target's answers this process counted so far: how many it read and how many passed, and the first that failed. */
export function isoAnswersInProcess(): {
  read: number;
  valid: number;
  failed: IsoSample[];
  /** Answers read so far, per operation that answers with a message. */
  readBy: Record<string, number>;
} {
  const all = Object.values(counts.answers);
  return {
    read: all.reduce((n, c) => n + c.sent, 0),
    valid: all.reduce((n, c) => n + c.valid, 0),
    failed: [...counts.answerSamples],
    readBy: Object.fromEntries(Object.entries(counts.answers).map(([op, c]) => [op, c.sent])),
  };
}

/** Written by each worker when it stops, beside what it created (record/created-count.ts). */
export function writeIsoCounts(dir: string, workerIndex: number, value: IsoCounts = counts): void {
  if (Object.keys(value.ops).length || Object.keys(value.answers ?? {}).length)
    writeWorkerFile(dir, 'iso', workerIndex, value);
}

function addCounts(into: Record<string, { sent: number; valid: number }>, from: IsoCounts['ops'] = {}): void {
  for (const [op, n] of Object.entries(from)) {
    const entry = (into[op] ??= { sent: 0, valid: 0 });
    entry.sent += n.sent;
    entry.valid += n.valid;
  }
}

/** Every worker's counts summed; undefined when no worker sent a message as valid. */
export function readIsoCounts(dir: string): IsoCounts | undefined {
  const files = readWorkerFiles(dir, 'iso') as IsoCounts[] | undefined;
  if (!files) return undefined;
  const sum: Required<IsoCounts> = { ops: {}, samples: [], answers: {}, answerSamples: [] };
  for (const file of files) {
    addCounts(sum.ops, file.ops);
    addCounts(sum.answers, file.answers);
    sum.samples.push(...file.samples);
    sum.answerSamples.push(...(file.answerSamples ?? []));
  }
  return sum;
}

/** "1,501 of 1,501 (submitPayment 938, refund 221 of 222, …)": what passed of what was counted, by operation. */
function tallyWords(byOp: IsoCounts['ops']): { all: boolean; words: string } {
  const ops = Object.entries(byOp).sort((a, b) => b[1].sent - a[1].sent);
  const sent = ops.reduce((n, [, c]) => n + c.sent, 0);
  const valid = ops.reduce((n, [, c]) => n + c.valid, 0);
  const parts = ops.map(([op, c]) => (c.valid === c.sent ? `${op} ${c.sent}` : `${op} ${c.valid} of ${c.sent}`));
  return { all: valid === sent, words: `${valid} of ${sent} (${parts.join(', ')})` };
}

const sampleLine = (s: IsoSample): string => {
  const first = s.findings[0];
  const finding = first
    ? `${first.path || '(document)'}${first.value !== undefined ? ` = ${JSON.stringify(first.value)}` : ''}: ${first.message}`
    : 'invalid';
  return `  ✘ ${s.op} (${s.message}) by ${s.by}: ${finding}`;
};

/**
 * "ISO 20022: 1,501 of 1,501 messages sent as valid pass their XSD (submitPayment 938, …)", the same
 * of the target's answers, and for each failure kept, the operation, who met it and the first finding.
 */
export function describeIsoCounts(value: IsoCounts): string[] {
  const lines: string[] = [];
  if (Object.keys(value.ops).length) {
    const sent = tallyWords(value.ops);
    lines.push(
      `ISO 20022: ${sent.words.replace(' (', ' messages sent as valid pass their XSD (')}${sent.all ? '' : ': the suite sent invalid ones'}`,
      ...value.samples.map(sampleLine),
    );
  }
  if (Object.keys(value.answers ?? {}).length) {
    const answers = tallyWords(value.answers ?? {});
    lines.push(
      `ISO 20022: ${answers.words.replace(' (', ' answers of the target pass their XSD (')}${answers.all ? '' : ' (assumption ISO-01)'}`,
      ...(value.answerSamples ?? []).map(sampleLine),
    );
  }
  return lines;
}

/** Whether every message sent as valid passed its XSD. */
export const isoAllValid = (value: IsoCounts): boolean => Object.values(value.ops).every((c) => c.valid === c.sent);
