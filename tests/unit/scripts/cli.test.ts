/**
 * A command given a wrong option says so in one sentence and its usage, exit 2, whether the option is
 * refused while its arguments are read or later: never a Node stack (scripts/lib/cli.ts cliMain).
 * Run: node --import tsx --test tests/unit/scripts/cli.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

for (const [script, command] of [
  ['scripts/dialect-matrix.ts', 'npm run dialects'],
  ['scripts/mutation.ts', 'npm run mutation'],
] as const)
  test(`${command} -- --bogus: one sentence and the usage, exit 2`, () => {
    const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', script, '--bogus'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /^✖ Unknown option '--bogus'\nusage: /);
    assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack');
  });
