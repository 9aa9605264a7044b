/**
 * The kill matrix's first kills (ledger/first-kills.json): for each fault, the test that killed it in
 * an earlier matrix. The matrix runs that one test first (ledger/kills.ts `tryFirst`), not every test
 * citing the fault's rule until one kills it; a fault its first kill no longer kills (the test renamed
 * or changed, the fault changed) runs every test citing its rule after (scripts/mutation.ts). A stale
 * entry costs time, never a verdict. A fault only the history sees has none: its tests run to their
 * end, whatever they show.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { faultRuns, killsFault, type Fault, type SelectableTest } from '../../ledger/kills';
import { outcomesOfReportTest } from '../../ledger/outcomes';
import { TITLE_SEPARATOR, type ReportTest } from '../../record/playwright-report';
import { faultOfTest } from './matrix';

export const FIRST_KILLS_FILE = path.join('ledger', 'first-kills.json');

interface FirstKillsFile {
  about: string;
  /** Fault name → the title path, from its file down, of the test that killed it. */
  faults: Record<string, readonly string[]>;
}

const ABOUT =
  'Written by npm run mutation -- --write-first-kills: the test that killed each fault, which the kill matrix runs first (scripts/lib/first-kills.ts).';

export type FirstKills = ReadonlyMap<string, readonly string[]>;

export function readFirstKills(file = FIRST_KILLS_FILE): FirstKills {
  if (!existsSync(file)) return new Map();
  const read = JSON.parse(readFileSync(file, 'utf8')) as FirstKillsFile;
  return new Map(Object.entries(read.faults));
}

/** `earlier` with `found` over it, sorted by fault name: one file a diff reads. */
export function writeFirstKills(earlier: FirstKills, found: FirstKills, file = FIRST_KILLS_FILE): void {
  const faults = Object.fromEntries([...new Map([...earlier, ...found])].sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(file, `${JSON.stringify({ about: ABOUT, faults } satisfies FirstKillsFile, null, 2)}\n`);
}

/**
 * The faults, each with the test to run first where one is recorded, listed, and one its tags select
 * (the test still cites the fault's rule on its operation). A fault only the history sees gets none.
 */
export function withFirstKills(
  faults: readonly Fault[],
  firstKills: FirstKills,
  listed: readonly SelectableTest[],
): Fault[] {
  const byTitle = new Map(listed.map((t) => [t.titlePath.join(TITLE_SEPARATOR), t]));
  return faults.map((fault) => {
    const first = firstKills.get(fault.name);
    const test = first && byTitle.get(first.join(TITLE_SEPARATOR));
    return test && !fault.seenBy && faultRuns(fault, test.tags) ? { ...fault, tryFirst: first } : fault;
  });
}

/** Of the faults, those no test of `tests` killed. */
export function notKilled(faults: readonly Fault[], tests: readonly ReportTest[]): Fault[] {
  const killed = new Set(
    tests.flatMap((t) => {
      const name = faultOfTest(t);
      const fault = name === undefined ? undefined : faults.find((f) => f.name === name);
      return fault && killsFault(fault, { tags: t.tags, outcomes: outcomesOfReportTest(t) }) ? [fault.name] : [];
    }),
  );
  return faults.filter((f) => !killed.has(f.name));
}

/** Each fault's first kill in these results: of the tests that killed it, the quickest. */
export function firstKillsOf(faults: readonly Fault[], tests: readonly ReportTest[]): Map<string, string[]> {
  const found = new Map<string, ReportTest>();
  for (const t of tests) {
    const name = faultOfTest(t);
    const fault = name === undefined ? undefined : faults.find((f) => f.name === name);
    if (!fault || fault.seenBy || !killsFault(fault, { tags: t.tags, outcomes: outcomesOfReportTest(t) })) continue;
    const quickest = found.get(fault.name);
    if (!quickest || t.durationMs < quickest.durationMs) found.set(fault.name, t);
  }
  return new Map([...found].map(([name, t]) => [name, t.titlePath]));
}
