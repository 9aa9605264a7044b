/**
 * The lines npm test prints again under its summary for a failed step (scripts/lib/failure-lines.ts):
 * those that name the failure in each step's own output, then the step's last lines.
 * Run: node --import tsx --test tests/unit/scripts/failure-lines.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureLines } from '../../../scripts/lib/failure-lines';

test('the kill matrix: its survivor, far above its verdict, and the verdict', () => {
  const killed = Array.from({ length: 400 }, (_, i) => `  ✓ fault-${i}                    P8-01      1  refuses: …`);
  const output = [
    '',
    'kill matrix: profile local, scope cited, 401 fault(s)',
    '',
    "\u001b[31mSURVIVED (1): no test failed the fault's rule with the fault on\u001b[0m",
    '\u001b[31m  ✖ cancel-finds-by-msgid                        XCL-01     no test failed\u001b[0m',
    '',
    'KILLED (400)',
    ...killed,
    '',
    'clean project local: 1005 passed, 0 failed, 0 skipped',
    'documented rules that no fault breaks: 0',
    '400 killed, 1 survived, 0 not applicable, 0 equivalent (of 401) — wall time 145.5 s',
    'matrix: reports/mutation/matrix.json, page: reports/mutation/index.html',
  ].join('\n');
  assert.deepEqual(failureLines(output), [
    '  ✖ cancel-finds-by-msgid                        XCL-01     no test failed',
    'documented rules that no fault breaks: 0',
    '400 killed, 1 survived, 0 not applicable, 0 equivalent (of 401) — wall time 145.5 s',
    'matrix: reports/mutation/matrix.json, page: reports/mutation/index.html',
  ]);
});

test('a Playwright run: each failed test with its claim, the rules line that names the violated rule', () => {
  const output = [
    'Running 4 tests using 2 workers',
    '··✘✘',
    '  1) pacs.008 validation: refusals › refuses: cdtTrfTxInf.0.intrBkSttlmAmt.ccy is EUR',
    '     [local] tests/payments/validation.spec.ts:21 @op:submitPayment @P8-23',
    '',
    '    Error: P8-23 a submission with cdtTrfTxInf.0.intrBkSttlmAmt.ccy is EUR is refused: accepted',
    '      "txSts": "ACCC",',
    'Rules (local): 5 of 154 documented rules assessed, 1 violated (P8-23)',
    '  149 not assessed: 149 not run',
    'seed 2601821204 (replay: PAYMENTS_SEED=2601821204 …)',
    '2 passed, 1 failed, 0 skipped',
  ].join('\n');
  assert.deepEqual(failureLines(output), [
    '  1) pacs.008 validation: refusals › refuses: cdtTrfTxInf.0.intrBkSttlmAmt.ccy is EUR',
    '    Error: P8-23 a submission with cdtTrfTxInf.0.intrBkSttlmAmt.ccy is EUR is refused: accepted',
    'Rules (local): 5 of 154 documented rules assessed, 1 violated (P8-23)',
    '  149 not assessed: 149 not run',
    'seed 2601821204 (replay: PAYMENTS_SEED=2601821204 …)',
    '2 passed, 1 failed, 0 skipped',
  ]);
});

test('the dialect matrix: its failed test with the error under it', () => {
  const output = [
    '  0 assumptions not met on the discovered profiles (enforce)',
    '  ✖ dialect-03-enforce › refuses: EUR',
    '      Error: P8-23 a submission with EUR is refused: accepted',
    '  ✖ dialect-04-report › refuses: GBP',
    'dialect matrix: FAILED — 16 dialects, 1 passed, 2 failed, 0 skipped',
    '1 passed, 2 failed, 0 skipped',
  ].join('\n');
  assert.deepEqual(failureLines(output).slice(0, 3), [
    '  ✖ dialect-03-enforce › refuses: EUR',
    '      Error: P8-23 a submission with EUR is refused: accepted',
    '  ✖ dialect-04-report › refuses: GBP',
  ]);
});

test('node --test: the failed tests, not the passed ones', () => {
  const output = ['ok 1 - a', 'not ok 2 - tests/unit/x.test.ts', '    not ok 1 - b', '# pass 1', '# fail 1'].join('\n');
  assert.deepEqual(failureLines(output), [
    'not ok 2 - tests/unit/x.test.ts',
    '    not ok 1 - b',
    '# pass 1',
    '# fail 1',
  ]);
});

test('many failures: the first of them, how many more, and the last lines still', () => {
  const output = [...Array.from({ length: 50 }, (_, i) => `not ok ${i + 1} - t${i}`), 'x', 'y', 'z'].join('\n');
  const lines = failureLines(output, 10);
  assert.equal(lines.length, 10);
  assert.deepEqual(lines.slice(-4), ['… 44 more', 'x', 'y', 'z']);
});
