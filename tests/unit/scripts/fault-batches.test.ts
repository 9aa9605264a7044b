/**
 * scripts/lib/fault-batches.ts and ledger/kills.ts: the kill matrix's faults share a worker only
 * where they share no test, a test of a batch runs against the one fault its tags select, and a kill
 * is a failure of the fault's rule on the fault's operation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchFaults } from '../../../scripts/lib/fault-batches';
import { faultGrep, faultRuns, faultSelects, killsFault, type Fault } from '../../../ledger/kills';

const fault = (name: string, rule: string): Fault => ({ name, rule });
let listed = 0;
const tagged = (...tags: string[]) => ({ titlePath: ['a.spec.ts', `test ${++listed}`], tags });

test('a fault runs the tests its grep selects, read from their tags with or without @', () => {
  const cancel = fault('bearer-optional@cancel', 'AT-01');
  assert.equal(faultRuns(cancel, ['@AT-01', '@op:cancel']), true);
  assert.equal(faultRuns(cancel, ['AT-01', 'op:cancel']), true, 'JSON reports write tags without @');
  assert.equal(faultRuns(cancel, ['@AT-01', '@op:cancellationStatus']), false);
  assert.equal(faultRuns(fault('bearer-optional', 'AT-01'), ['@AT-01', '@op:refund']), true);
  assert.equal(faultRuns(fault('x', 'P8-1'), ['@P8-12']), false, 'a rule is matched whole');
  // The same selection as the project's grep over Playwright's title text.
  assert.equal(faultGrep(cancel).test('local~faults-01 cancel.spec.ts title @op:cancel @AT-01'), true);
});

test('no two faults of a batch run the same test, and every fault is in one batch', () => {
  const faults = [
    fault('a', 'R-1'),
    fault('a@cancel', 'R-1'),
    fault('a@refund', 'R-1'),
    fault('b', 'R-2'),
    fault('c', 'R-3'),
    fault('none', 'R-9'),
  ];
  const tests = [
    tagged('@R-1', '@op:cancel'),
    tagged('@R-1', '@op:refund'),
    tagged('@R-1', '@R-2', '@op:refund'),
    tagged('@R-3'),
  ];
  const batches = batchFaults(faults, tests, 16);
  assert.deepEqual(
    batches
      .flat()
      .map((f) => f.name)
      .sort(),
    faults.map((f) => f.name).sort(),
  );
  for (const batch of batches)
    for (const [i, t] of tests.entries())
      assert.ok(batch.filter((f) => faultRuns(f, t.tags)).length <= 1, `test ${i} is run by two faults of one batch`);
  // a shares tests with a@cancel, a@refund and b: it sits apart from them.
  const withA = batches.find((b) => b.some((f) => f.name === 'a'))!;
  assert.ok(!withA.some((f) => ['a@cancel', 'a@refund', 'b'].includes(f.name)));
});

test('batches hold at most maxSize faults, spread over ceil(n / maxSize) batches when nothing conflicts', () => {
  const faults = Array.from({ length: 10 }, (_, i) => fault(`f${i}`, `R-${i + 1}`));
  const tests = faults.map((_, i) => tagged(`@R-${i + 1}`));
  const batches = batchFaults(faults, tests, 4);
  assert.equal(batches.length, 3);
  assert.ok(batches.every((b) => b.length <= 4));
  assert.deepEqual(
    batches.map((b) => b.length),
    [4, 3, 3],
  );
});

test('with every test run by every fault (scope all), each fault has a batch of its own', () => {
  const faults = [fault('a', 'R-1'), fault('b', 'R-2')];
  assert.deepEqual(
    batchFaults(faults, [tagged('@R-1')], 16, true).map((b) => b.map((f) => f.name)),
    [['a'], ['b']],
  );
});

test('a kill is a failure of the fault’s own rule, on the fault’s operation', () => {
  const failed = (rule: string) => ({ rule, status: 'failed' as const, why: 'x' });
  const onCancel = fault('bearer-optional@cancel', 'AT-01');
  assert.equal(killsFault(onCancel, { tags: ['@AT-01', '@op:cancel'], outcomes: [failed('AT-01')] }), true);
  assert.equal(killsFault(onCancel, { tags: ['@AT-01', '@op:refund'], outcomes: [failed('AT-01')] }), false);
  assert.equal(killsFault(onCancel, { tags: ['@AT-01', '@op:cancel'], outcomes: [failed('AT-02')] }), false);
  assert.equal(
    killsFault(onCancel, { tags: ['@AT-01', '@op:cancel'], outcomes: [{ rule: 'AT-01', status: 'passed' }] }),
    false,
  );
});

test('a fault with a first kill runs that one test: its grep selects its title path whole, its batch shares it with no other fault', () => {
  const first = ['returns/return.spec.ts', 'POST pacs004: refused', 'refuses: alg none'];
  const tried = { ...fault('a', 'R-1'), tryFirst: first };
  const grepText = (titlePath: string[], tags: string) => ` local~faults-01 ${titlePath.join(' ')} ${tags}`;
  assert.equal(faultGrep(tried).test(grepText(first, '@R-1')), true);
  assert.equal(
    faultGrep(tried).test(grepText([...first.slice(0, 2), 'refuses: alg none (unsigned)'], '@R-1')),
    false,
    'a longer title is another test',
  );
  assert.equal(faultSelects(tried, { titlePath: first, tags: ['@R-1'] }), true);
  assert.equal(faultSelects(tried, { titlePath: [...first.slice(0, 2), 'other'], tags: ['@R-1'] }), false);
  // b cites R-1 too but has no first kill: it runs every test citing R-1, the first one included.
  const tests = [
    { titlePath: first, tags: ['@R-1'] },
    { titlePath: ['x.spec.ts', 'other'], tags: ['@R-1'] },
  ];
  const batches = batchFaults(
    [tried, fault('b', 'R-1'), { ...fault('c', 'R-1'), tryFirst: tests[1]!.titlePath }],
    tests,
    16,
  );
  for (const batch of batches) for (const t of tests) assert.ok(batch.filter((f) => faultSelects(f, t)).length <= 1);
  assert.ok(
    batches.find((b) => b.some((f) => f.name === 'a'))!.some((f) => f.name === 'c'),
    'a and c share no test',
  );
});
