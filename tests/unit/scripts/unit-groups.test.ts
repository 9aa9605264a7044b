/**
 * How npm test hands the unit-test files to node --test (scripts/lib/unit-groups.ts): a file that
 * starts processes alone, the rest in groups, every file exactly once.
 * Run: node --import tsx --test tests/unit/scripts/unit-groups.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planUnitRun, startsProcesses, writeUnitGroups } from '../../../scripts/lib/unit-groups';

test('a file that imports child_process or the CLI helpers starts processes; one that only names them does not', () => {
  assert.ok(startsProcesses(`import { spawnSync } from 'node:child_process';`));
  assert.ok(startsProcesses(`import { runScript } from '../support/cli';`));
  assert.ok(startsProcesses(`import { root } from './support/cli';`));
  assert.ok(!startsProcesses(`// the suite is not started here: see child_process in support/cli`));
  assert.ok(!startsProcesses(`import { parse } from '../../../scripts/lib/cli-args';`));
});

test('every unit-test file runs exactly once: alone, or in one group that requires it by its absolute path', () => {
  const files = (readdirSync('tests/unit', { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join('tests/unit', f));
  const dir = path.join(os.tmpdir(), `payments-unit-groups-${process.pid}`);
  const run = planUnitRun(files, dir, 2);
  try {
    const grouped = run.groups.flatMap((g) => g.members);
    assert.deepEqual([...run.alone, ...grouped].sort(), [...files].sort());
    assert.equal(run.groups.length, 2);
    assert.ok(run.alone.includes(path.join('tests/unit/reference/broken-targets.test.ts')));
    assert.ok(grouped.includes(path.join('tests/unit/scripts/unit-groups.test.ts')));
    writeUnitGroups(run);
    for (const group of run.groups)
      assert.deepEqual(
        [...readFileSync(group.file, 'utf8').matchAll(/^require\("(.+)"\);$/gm)].map((m) => m[1]),
        group.members.map((m) => path.resolve(m)),
      );
    assert.deepEqual(run.files, [...run.alone, ...run.groups.map((g) => g.file)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
