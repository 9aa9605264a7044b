/**
 * scripts/lib/first-kills.ts: a fault runs the test that first killed it only while that test is still
 * listed and still cites its rule; a fault that test did not kill is found again, and the quickest
 * killer of a run is what gets recorded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  firstKillsOf,
  notKilled,
  readFirstKills,
  withFirstKills,
  writeFirstKills,
} from '../../../scripts/lib/first-kills';
import { FAULT_ANNOTATION, type Fault } from '../../../ledger/kills';
import { reportTest } from '../support/report-tests';
import type { ReportTest } from '../../../record/playwright-report';

const a: Fault = { name: 'a', rule: 'R-1' };
const listed = [
  { titlePath: ['f.spec.ts', 'cites R-1'], tags: ['@R-1'] },
  { titlePath: ['f.spec.ts', 'cites R-2'], tags: ['@R-2'] },
];

/** A test of fault `fault`'s batch, citing R-1, ended as `status` after `ms`. */
const ran = (fault: string, status: 'passed' | 'failed', titlePath: string[], ms = 1): ReportTest => ({
  ...reportTest(['@R-1'], status, [{ type: FAULT_ANNOTATION, description: fault }]),
  titlePath,
  durationMs: ms,
});

test('a recorded first kill is tried only while it is listed and cites the fault’s rule; a history fault never tries one', () => {
  const recorded = new Map([
    ['a', ['f.spec.ts', 'cites R-1']],
    ['b', ['f.spec.ts', 'cites R-2']],
    ['c', ['gone.spec.ts', 'renamed']],
    ['h', ['f.spec.ts', 'cites R-1']],
  ]);
  const faults: Fault[] = [
    a,
    { name: 'b', rule: 'R-1' },
    { name: 'c', rule: 'R-1' },
    { name: 'h', rule: 'R-1', seenBy: 'history' },
    { name: 'new', rule: 'R-1' },
  ];
  const tried = Object.fromEntries(withFirstKills(faults, recorded, listed).map((f) => [f.name, f.tryFirst]));
  assert.deepEqual(tried, { a: ['f.spec.ts', 'cites R-1'], b: undefined, c: undefined, h: undefined, new: undefined });
});

test('a fault its first kill did not kill runs again; the quickest killer of the run is recorded, over the earlier record', () => {
  const b: Fault = { name: 'b', rule: 'R-1' };
  const tests = [
    ran('a', 'failed', ['f.spec.ts', 'slow'], 50),
    ran('a', 'failed', ['f.spec.ts', 'quick'], 5),
    ran('b', 'passed', ['f.spec.ts', 'x']),
  ];
  assert.deepEqual(
    notKilled([a, b], tests).map((f) => f.name),
    ['b'],
  );
  const found = firstKillsOf([a, b], tests);
  assert.deepEqual([...found], [['a', ['f.spec.ts', 'quick']]]);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'first-kills-')), 'first-kills.json');
  writeFirstKills(
    new Map([
      ['b', ['f.spec.ts', 'old']],
      ['a', ['f.spec.ts', 'old']],
    ]),
    found,
    file,
  );
  assert.deepEqual(
    [...readFirstKills(file)],
    [
      ['a', ['f.spec.ts', 'quick']],
      ['b', ['f.spec.ts', 'old']],
    ],
  );
  assert.match(readFileSync(file, 'utf8'), /^\{\n {2}"about"/);
});
