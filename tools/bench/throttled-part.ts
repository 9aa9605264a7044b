/**
 * The throttled-sandbox targets: the suite against the embedded reference playing a provider's sandbox
 * that limits each client (40 requests a second) and counts the token endpoint in a bucket of its own
 * (20 a second for every client of the address), answers 50 ms late, 3 % of status reads 503, 20 s
 * tokens: once with none of it declared (the run learns each bucket, Retry-After as an HTTP-date), once
 * declared. Each must end with 0 failed and 0 inconclusive within THROTTLED_FLOOR_RATIO of its floor,
 * the floor the run prints itself: its busiest bucket's requests at that bucket's rate, or its
 * critical path, whichever is longer (record/run-floor.ts).
 */
import { stripVTControlCharacters } from 'node:util';
import { measureConformance, type CommandRun } from './command-run';
import { ratio, seconds, type Row } from './format';
import { THROTTLED_FLOOR_RATIO, THROTTLED_PROFILES } from './targets';

export interface ThrottledResult {
  rows: Row[];
  notes: string[];
}

/** The floor lines the run printed: the limits, each bucket, the critical path, and "wall …, floor …: N× the floor". */
export function floorLines(output: string): { lines: string[]; ratio: number | undefined } {
  const all = stripVTControlCharacters(output).split('\n');
  const start = all.findIndex((l) => l.startsWith('Rate limits ('));
  if (start < 0) return { lines: [], ratio: undefined };
  const end = all.findIndex((l, i) => i > start && l.startsWith('wall '));
  const lines = all.slice(start, end < 0 ? undefined : end + 1);
  const found = /: ([\d.]+)× the floor$/.exec(lines.at(-1) ?? '');
  return { lines, ratio: found ? Number(found[1]) : undefined };
}

const clean = (run: CommandRun): boolean =>
  /^\d+ passed, 0 failed, \d+ skipped$/.test(run.counts ?? '') && (run.exitCode === 0 || run.exitCode === 4);

export async function throttledPart(): Promise<ThrottledResult> {
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const { profile, what } of THROTTLED_PROFILES) {
    const run = await measureConformance(`throttled sandbox: ${profile}`, [`--project=${profile}`]);
    const floor = floorLines(run.output);
    rows.push({
      measure: `throttled sandbox, ${what} (--project=${profile}): wall against the run's own floor, ${run.counts ?? `exit ${run.exitCode}`}`,
      value: floor.ratio !== undefined ? `${ratio(floor.ratio)} (wall ${seconds(run.wallMs)})` : 'no floor printed',
      target: `≤ ${THROTTLED_FLOOR_RATIO}×, 0 failed, 0 inconclusive`,
      ok: floor.ratio !== undefined && floor.ratio <= THROTTLED_FLOOR_RATIO && clean(run),
      load: run.load,
    });
    notes.push(`${profile}: ${floor.lines.join(' / ') || 'the run printed no floor'}`);
    const learned = stripVTControlCharacters(run.output)
      .split('\n')
      .find((l) => l.startsWith('rate limit learned'));
    if (learned) notes.push(`${profile}: ${learned}`);
    // A failed test is named: a throttled run that fails once in several is worth chasing, and its run folder is gone.
    const failed = stripVTControlCharacters(run.output)
      .split('\n')
      .filter((l) => /^\s*✘ /.test(l))
      .map((l) => l.trim().replace(/\s+@\S+/g, ''));
    if (failed.length)
      notes.push(`${profile}: failed: ${failed.slice(0, 8).join('; ')}${failed.length > 8 ? '; …' : ''}`);
  }
  return { rows, notes };
}
