/**
 * The dialect matrix's split of its table-driven tests (scripts/dialect-matrix.ts): with --split-rows
 * the matrix's dialects fall into groups that each hold every value of every dialect field, and each
 * test of a table-driven file (one case of a table per test) runs on one group's dialects; with
 * --split-lanes the groups are its two lanes, enforce and report, and each such test runs in one of
 * them. Every other test runs everywhere. A test's group follows from its title path alone, so the
 * plan (which pays only for the tests that run: runner/reporters/plan.ts) and the worker (which skips
 * the rest: fixtures/row-group.ts) agree without asking each other.
 */
export interface RowGroup {
  /** This project's group, from 0. */
  group: number;
  /** How many groups the matrix's projects fall into. */
  groups: number;
  /** The table-driven files, as a test's title path names its file (from the tests folder, with /). */
  files: readonly string[];
}

/**
 * Whether a test runs in a project of `rowGroup`: a test's title path is its file, its describe
 * blocks and its title (Playwright's testInfo.titlePath).
 */
export function runsInRowGroup(rowGroup: RowGroup | undefined, titlePath: readonly string[]): boolean {
  if (!rowGroup || rowGroup.groups < 2) return true;
  const [file = '', ...rest] = titlePath;
  if (!rowGroup.files.includes(file.replaceAll('\\', '/'))) return true;
  return fnv1a(rest.join('\u0000')) % rowGroup.groups === rowGroup.group;
}

/** FNV-1a, 32 bits: a title's group, the same in every process, spread evenly over the groups. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
