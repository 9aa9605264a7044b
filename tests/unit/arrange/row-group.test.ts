/** arrange/row-group.ts: which group of the dialect matrix runs a table-driven test. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runsInRowGroup, type RowGroup } from '../../../arrange/row-group';

const files = ['access/cross-cutting.spec.ts'];
const groupsOf = (groups: number): RowGroup[] =>
  Array.from({ length: groups }, (_, group) => ({ group, groups, files }));
const titles = Array.from({ length: 400 }, (_, i) => ['access/cross-cutting.spec.ts', 'a table', `case ${i}`]);

test('a table-driven test runs in exactly one group, and the groups share the table about evenly', () => {
  for (const groups of [2, 3]) {
    const runs = groupsOf(groups).map((g) => titles.filter((t) => runsInRowGroup(g, t)).length);
    assert.equal(
      runs.reduce((a, b) => a + b, 0),
      titles.length,
      `${groups} groups: every test once`,
    );
    for (const n of runs) assert.ok(Math.abs(n - titles.length / groups) < titles.length / groups / 4, `${runs}`);
  }
});

test('a test of another file, a project without a group, or one group of all runs everywhere', () => {
  const other = ['status/status.spec.ts', 'a describe', 'a test'];
  for (const g of groupsOf(2)) assert.ok(runsInRowGroup(g, other));
  assert.ok(runsInRowGroup(undefined, titles[0]!));
  assert.ok(runsInRowGroup({ group: 0, groups: 1, files }, titles[0]!));
});

test('the group follows from the title path alone, a Windows path separator included', () => {
  const [g0] = groupsOf(2);
  for (const t of titles.slice(0, 20))
    assert.equal(runsInRowGroup(g0, t), runsInRowGroup(g0, [t[0]!.replace('/', '\\'), ...t.slice(1)]));
});
