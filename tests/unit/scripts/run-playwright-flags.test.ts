/**
 * The V8 flags a scripted run gives its processes (scripts/lib/run-playwright.ts): the workers' memory
 * flags through NODE_OPTIONS, where a flag the user set wins, and none on the runner's command line,
 * whose flags Playwright hands every worker over NODE_OPTIONS.
 * Run: node --import tsx --test tests/unit/scripts/run-playwright-flags.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryEnvironment, runnerV8Flags } from '../../../scripts/lib/run-playwright';

test('without a flag of the user, the workers get 1 MB semi-spaces and a 256 MB old generation', () => {
  assert.equal(memoryEnvironment({}).NODE_OPTIONS, '--max-semi-space-size=1 --max-old-space-size=256');
});

test('a semi-space size the user set in NODE_OPTIONS is kept, and the runner’s command line does not override it', () => {
  const options = memoryEnvironment({ NODE_OPTIONS: '--max-semi-space-size=16' }).NODE_OPTIONS!;
  assert.match(options, /--max-semi-space-size=16/);
  assert.doesNotMatch(options, /--max-semi-space-size=1\b/);
  assert.deepEqual(runnerV8Flags(undefined), []);
});

test('a matrix’s own semi-space size goes on the runner’s command line', () => {
  assert.deepEqual(runnerV8Flags(8), ['--max-semi-space-size=8']);
});
