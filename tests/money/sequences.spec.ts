/**
 * Directed money-flow sequences (engines/exploration/money-sequences.ts): the counterexamples the
 * exploration found, and the money defects first found by probing the reference, as fixed steps that run in every conformance run.
 * Each starts from a kit of settled payments arranged in the background from the worker's start, and
 * shows its steps one by one with their exchanges.
 */
import { test, takes } from '../../fixtures/test';
import { moneySequences } from '../../engines/exploration/money-sequences';
import { moneySequenceObservations } from '../../arrange/observation-catalogue';

test.describe('money across flows and clients: directed sequences', () => {
  for (const sequence of moneySequences) {
    const tag = [...sequence.rules.map((r) => `@${r}`), ...sequence.ops.map((op) => `@op:${op}`)];
    test(sequence.name, { tag, ...takes({ observation: moneySequenceObservations[sequence.name]! }) }, async ({
      runSequence,
    }) => {
      await runSequence(sequence);
    });
  }
});
