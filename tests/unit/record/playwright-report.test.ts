/**
 * Unit checks of record/playwright-report.ts on a hand-made report. Run with
 * `node --import tsx --test tests/unit/record/playwright-report.test.ts` (Playwright ignores tests/unit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flattenReport, type PlaywrightJsonReport } from '../../../record/playwright-report';

// Shaped like Playwright 1.65 writes it: tags without @, file suite titled by its path, one test per project.
const report: PlaywrightJsonReport = {
  suites: [
    {
      title: 'auth/token.spec.ts',
      file: 'auth/token.spec.ts',
      line: 0,
      specs: [
        {
          title: 'top level',
          file: 'auth/token.spec.ts',
          line: 5,
          tags: ['TOK-01'],
          tests: [{ status: 'expected', projectName: 'local', results: [{ status: 'passed', duration: 12 }] }],
        },
      ],
      suites: [
        {
          title: 'token',
          file: 'auth/token.spec.ts',
          line: 8,
          specs: [],
          suites: [
            {
              title: 'negative',
              file: 'auth/token.spec.ts',
              line: 9,
              specs: [
                {
                  title: 'skipped',
                  file: 'auth/token.spec.ts',
                  line: 10,
                  tags: ['KEY-01'],
                  tests: [
                    {
                      status: 'skipped',
                      projectName: 'local',
                      annotations: [{ type: 'skip', description: 'KEY-01 needs capability "keyRegistration"' }],
                      results: [{ status: 'skipped', duration: 1 }],
                    },
                  ],
                },
                {
                  title: 'flaky',
                  file: 'auth/token.spec.ts',
                  line: 20,
                  tags: ['TOK-02', 'live-safe'],
                  tests: [
                    {
                      status: 'flaky',
                      projectName: 'local',
                      results: [
                        { status: 'failed', duration: 100, errors: [{ message: 'first try' }] },
                        { status: 'passed', duration: 50 },
                      ],
                    },
                  ],
                },
                {
                  title: 'failed',
                  file: 'auth/token.spec.ts',
                  line: 30,
                  tags: ['TOK-03'],
                  tests: [
                    {
                      status: 'unexpected',
                      projectName: 'local',
                      results: [
                        {
                          status: 'failed',
                          duration: 7,
                          errors: [{ message: 'Error: expected 200\n  at x' }, { message: 'second' }],
                          annotations: [{ type: 'drift' }],
                        },
                      ],
                    },
                    { status: 'expected', projectName: 'local-lenient', results: [{ status: 'passed', duration: 3 }] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

test("flattenReport walks nested describes, a suite's specs before its child suites, one record per project", () => {
  const tests = flattenReport(report);
  assert.deepEqual(
    tests.map((t) => [t.project, t.title]),
    [
      ['local', 'auth/token.spec.ts › top level'],
      ['local', 'auth/token.spec.ts › token › negative › skipped'],
      ['local', 'auth/token.spec.ts › token › negative › flaky'],
      ['local', 'auth/token.spec.ts › token › negative › failed'],
      ['local-lenient', 'auth/token.spec.ts › token › negative › failed'],
    ],
  );
  assert.deepEqual(tests[1]!.titlePath, ['auth/token.spec.ts', 'token', 'negative', 'skipped']);
  assert.equal(tests[1]!.file, 'auth/token.spec.ts');
  assert.equal(tests[1]!.line, 10);
});

test('flattenReport maps statuses to outcomes: flaky passes, unexpected fails', () => {
  const [top, skipped, flaky, failed, lenient] = flattenReport(report);
  assert.deepEqual(
    [top, skipped, flaky, failed, lenient].map((t) => [t!.status, t!.outcome, t!.resultStatus]),
    [
      ['expected', 'passed', 'passed'],
      ['skipped', 'skipped', 'skipped'],
      ['flaky', 'passed', 'passed'],
      ['unexpected', 'failed', 'failed'],
      ['expected', 'passed', 'passed'],
    ],
  );
});

test("flattenReport keeps tags and annotations as in the report, sums durations and reads the last result's errors", () => {
  const [, skipped, flaky, failed] = flattenReport(report);
  assert.deepEqual(skipped!.annotations, [{ type: 'skip', description: 'KEY-01 needs capability "keyRegistration"' }]);
  assert.deepEqual(skipped!.tags, ['KEY-01']);
  assert.deepEqual(flaky!.tags, ['TOK-02', 'live-safe']);
  assert.equal(flaky!.durationMs, 150);
  assert.deepEqual(flaky!.errors, [], 'the retry that passed carries no error');
  assert.deepEqual(failed!.errors, ['Error: expected 200\n  at x', 'second']);
  assert.deepEqual(failed!.resultAnnotations, [{ type: 'drift' }]);
  assert.deepEqual(failed!.annotations, []);
});

test("flattenReport falls back to a result's `error` and tolerates tests that never ran", () => {
  const [t, notRun] = flattenReport({
    suites: [
      {
        title: 'f.spec.ts',
        specs: [
          {
            title: 'a',
            tests: [
              {
                status: 'unexpected',
                projectName: 'p',
                results: [{ status: 'timedOut', error: { message: 'Test timeout' } }],
              },
            ],
          },
          { title: 'b', tests: [{ status: 'skipped', projectName: 'p' }] },
        ],
      },
    ],
  });
  assert.deepEqual(t!.errors, ['Test timeout']);
  assert.equal(t!.durationMs, 0);
  assert.deepEqual(t!.tags, []);
  assert.equal(t!.file, undefined);
  assert.equal(notRun!.resultStatus, undefined);
  assert.equal(notRun!.outcome, 'skipped');
});
