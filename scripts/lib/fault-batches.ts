/**
 * The kill matrix's faults in batches, one Playwright project (one worker) each: starting a worker
 * costs more than the few tests a fault runs, so a worker serves a batch of faults, each test against
 * the one fault of its batch whose rule it cites (fixtures/options.ts), with that fault's own clients.
 * No two faults of a batch run the same test; a fault that shares tests with every batch gets one of
 * its own (with `--scope all` every fault does).
 */
import { faultSelects, type Fault, type SelectableTest } from '../../ledger/kills';

/**
 * Batches of at most `maxSize` faults, none sharing a test, in `faults` order within each. Heaviest
 * fault first, each into the lightest batch it fits (by tests), so batches end about together.
 * `runsAll`: every fault runs every test (scope all).
 */
export function batchFaults(
  faults: readonly Fault[],
  tests: readonly SelectableTest[],
  maxSize: number,
  runsAll = false,
): Fault[][] {
  const ran = new Map(
    faults.map((f) => [f, new Set(tests.flatMap((t, i) => (runsAll || faultSelects(f, t) ? [i] : [])))]),
  );
  const order = [...faults].sort((a, b) => ran.get(b)!.size - ran.get(a)!.size);
  const batches = Array.from({ length: Math.ceil(faults.length / Math.max(1, maxSize)) }, () => ({
    faults: [] as Fault[],
    tests: new Set<number>(),
  }));
  for (const fault of order) {
    const own = ran.get(fault)!;
    const fits = batches
      .filter((b) => b.faults.length < maxSize && ![...own].some((i) => b.tests.has(i)))
      .sort((a, b) => a.tests.size - b.tests.size);
    const batch = fits[0] ?? batches[batches.push({ faults: [], tests: new Set() }) - 1]!;
    batch.faults.push(fault);
    for (const i of own) batch.tests.add(i);
  }
  const position = new Map(faults.map((f, i) => [f, i]));
  return batches
    .filter((b) => b.faults.length)
    .map((b) => b.faults.sort((x, y) => position.get(x)! - position.get(y)!));
}
