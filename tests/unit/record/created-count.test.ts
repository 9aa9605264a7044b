/**
 * A run counts what it created at the target (accepted
 * submissions per operation, summed over its workers) and prints it in its summary and run.json; the
 * settled-payment pools of several workers pay no more than the plan between them.
 * Run: node --import tsx --test tests/unit/record/created-count.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeCreated, readCreatedCounts, totalCreated, writeCreatedCount } from '../../../record/created-count';
import { RunPoolTaken } from '../../../arrange/pool-taken';
import { tempDir } from '../support/cli';

test("the workers' creations are summed by operation; a worker that created nothing writes nothing", () => {
  const dir = tempDir('created');
  assert.equal(readCreatedCounts(dir), undefined);
  writeCreatedCount(dir, 0, { submitPayment: 3, returnPayment: 1 });
  writeCreatedCount(dir, 1, { submitPayment: 2, refund: 4 });
  writeCreatedCount(dir, 2, {});
  const sum = readCreatedCounts(dir)!;
  assert.deepEqual(sum, { submitPayment: 5, returnPayment: 1, refund: 4 });
  assert.equal(totalCreated(sum), 10);
  assert.equal(
    describeCreated(sum),
    'created at the target: 10 accepted submissions (submitPayment 5, refund 4, returnPayment 1)',
  );
});

test('a worker reads what every worker of the run took from its pool', () => {
  const dir = tempDir('pool-taken');
  const first = new RunPoolTaken(dir, 0);
  const second = new RunPoolTaken(dir, 1);
  assert.equal(first.byRun('settled'), 0);
  first.record({ settled: 170, 'settled+cancellation': 4 });
  second.record({ settled: 168, 'settled+cancellation': 4 });
  first.record({ settled: 180, 'settled+cancellation': 4 });
  assert.equal(first.byRun('settled'), 348);
  assert.equal(second.byRun('settled'), 348);
  assert.equal(second.byRun('settled+cancellation'), 8);
});

test("a worker's pools of several client sets each keep their own count: none overwrites another's", () => {
  const dir = tempDir('pool-taken-sets');
  const main = new RunPoolTaken(dir, 0, 0);
  const ofAFault = new RunPoolTaken(dir, 0, 1);
  main.record({ settled: 200, 'settled+cancellation': 0 });
  ofAFault.record({ settled: 3, 'settled+cancellation': 0 });
  assert.equal(main.byRun('settled'), 203);
});
