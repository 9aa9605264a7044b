/**
 * The run's verdict on each target it ran against, read from what the workers counted
 * (record/target-tally.ts) and judged by checks/target-verdict.ts: the summary prints its sentence
 * first, run.json keeps it with the counts it rests on. Nothing is judged here.
 */
import type { TargetTally } from '../../record/target-tally';
import { readTargetTallies } from '../../record/target-tally';
import { runPaths } from '../../record/run-folder';
import { judgeTarget, type TargetVerdictKind } from '../../checks/target-verdict';

/** What run.json keeps of one project's target: the counts, and the verdict when they make one. */
export interface TargetRecord extends TargetTally {
  verdict?: TargetVerdictKind;
  sentence?: string;
}

/** Every project's target record of the run in `runDir`, by project. */
export function targetRecords(runDir: string | undefined): Record<string, TargetRecord> {
  if (!runDir) return {};
  const records: Record<string, TargetRecord> = {};
  for (const [project, tally] of readTargetTallies(runPaths(runDir).transcripts)) {
    const verdict = judgeTarget(tally);
    records[project] = { ...(verdict ? { verdict: verdict.kind, sentence: verdict.sentence } : {}), ...tally };
  }
  return records;
}

/** The summary's first lines: one sentence per target judged broken or not validating, none for the others. */
export function targetVerdictLines(runDir: string | undefined): string[] {
  return Object.entries(targetRecords(runDir)).flatMap(([project, record]) =>
    record.sentence ? [`${project}: ${record.sentence}`] : [],
  );
}
