/**
 * Directed money-flow sequences (fixtures/catalogues/money-sequences.ts): the counterexamples the
 * exploration found, and the defects of issue 14, as fixed steps that run in every conformance run.
 * Each starts from a kit of settled payments arranged in the background from the worker's start, and
 * shows its steps one by one with their exchanges.
 */
import { test, takes } from '../../fixtures/test';
import { moneySequences, waitsAfterItsKit } from '../../fixtures/catalogues/money-sequences';
import { moneySequenceObservations } from '../../fixtures/catalogues/observations';

/**
 * A sequence that waits for the scheme after its kit settled is played in the background with its
 * kit; its answer comes two settlement delays after the worker started. Playwright's built-in
 * exclusive lock runs a test only when no other test is running, which here means last: by then the
 * answer is in, and the two waits overlapped the whole run instead of holding a worker.
 */
const LAST = { lock: '-exclusive-' };

test.describe('money across flows and clients: directed sequences', () => {
  for (const sequence of moneySequences) {
    const tag = [...sequence.rules.map((r) => `@${r}`), ...sequence.ops.map((op) => `@op:${op}`)];
    const details = { tag, annotation: takes({ observation: moneySequenceObservations[sequence.name]! }), ...(waitsAfterItsKit(sequence) ? LAST : {}) };
    test(sequence.name, details, async ({ runSequence }) => {
      await runSequence(sequence);
    });
  }
});
