/**
 * The unit-test files as npm test hands them to `node --test`. A file that starts processes of its
 * own (the suite, a script, curl) runs in a process of its own, as node --test runs every file, so
 * that its waits on those children overlap another file's work. The rest run together, a few
 * processes each holding many files: a process of its own per file paid Node's start, tsx's hooks and
 * the imports of the modules under test again for each of 74 files.
 * Each group is a CommonJS file that requires its members (tsx's CommonJS hook loads them: npm test
 * runs node --test with no ESM loader); a failure still names its test file (node --test reports the
 * failing test's location).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A unit-test file that starts processes: it imports child_process or the tests' CLI helpers. */
const STARTS_PROCESSES = /^import [^;]* from ['"](?:(?:node:)?child_process|[./]*(?:support\/)?cli)['"];/m;

export function startsProcesses(source: string): boolean {
  return STARTS_PROCESSES.test(source);
}

export interface UnitRun {
  /** What node --test runs: each process-starting file, then each group file. */
  files: string[];
  /** The files that run on their own. */
  alone: string[];
  /** The group files, each with the test files it imports. */
  groups: { file: string; members: string[] }[];
}

/**
 * Splits `files` (paths relative to the working directory) into those that run alone and `count`
 * groups of the rest, dealt in turn so each group gets a share of every folder, each group a file in
 * `dir` (written by writeUnitGroups).
 */
export function planUnitRun(files: readonly string[], dir: string, count: number): UnitRun {
  const alone = files.filter((f) => startsProcesses(readFileSync(f, 'utf8')));
  const together = files.filter((f) => !alone.includes(f));
  const groups = Array.from({ length: Math.min(count, together.length) }, (_, g) => ({
    file: path.join(dir, `together-${g + 1}.test.cjs`),
    members: together.filter((_, i) => i % count === g),
  }));
  return { files: [...alone, ...groups.map((g) => g.file)], alone, groups };
}

/** Writes the plan's group files, each importing its members, into a folder emptied first. */
export function writeUnitGroups(run: UnitRun): void {
  for (const dir of new Set(run.groups.map((g) => path.dirname(g.file)))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  for (const { file, members } of run.groups)
    writeFileSync(
      file,
      `// Written by npm test (scripts/lib/unit-groups.ts): these unit-test files in one process.\n${members
        .map((m) => `require(${JSON.stringify(path.resolve(m))});`)
        .join('\n')}\n`,
    );
}
