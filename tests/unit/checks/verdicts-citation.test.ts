/**
 * One source for a test's rules: a check of a rule the test's tags do not cite is an
 * immediate error naming the test, the rule and the fix; a precondition (`require`) need not be cited.
 * Run with `node --import tsx --test tests/unit/checks/verdicts-citation.test.ts`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestRecord } from '../../../checks/host';
import { UncitedRuleError, Verdicts } from '../../../checks/verdicts';
import type { Profile } from '../../../profile/profile';
import { CHECK_ANNOTATION, SKIP_ANNOTATION } from '../../../ledger/outcomes';
import type { Exchange } from '../../../transport/http';
import { refusedAs } from '../../../checks/refusals';
import { acceptedInDeclaredShape, equals } from '../../../checks/answers';

/** The parts of a TestRecord the citation rule reads; quiet Verdicts record a passed check without a step. */
function verdictsOf(
  tags: string[],
  expectations: Record<string, unknown> = {},
): { verdicts: Verdicts; info: TestRecord } {
  const info: TestRecord = {
    tags,
    titlePath: ['payments/x.spec.ts', 'payments', 'a valid pacs.008 is created'],
    file: '/suite/tests/payments/x.spec.ts',
    line: 12,
    column: 3,
    annotations: [],
  };
  const profile = { expectations: { assumptions: 'report', ...expectations } } as unknown as Profile;
  return { verdicts: new Verdicts(profile, info, true), info };
}

const HOLDS = { ok: true, expected: 'HTTP 201', received: 'HTTP 201' };

test('a check of a rule the test does not cite throws at once, naming the test, the rule and the fix', () => {
  const { verdicts, info } = verdictsOf(['@P8-02']);
  assert.throws(
    () => verdicts.check('P8-01', 'the answer is a data object', HOLDS),
    (error: unknown) => {
      assert.ok(error instanceof UncitedRuleError);
      assert.match(
        error.message,
        /test "payments › a valid pacs\.008 is created" \(\/suite\/tests\/payments\/x\.spec\.ts:12\)/,
      );
      assert.match(error.message, /checks P8-01 \("the answer is a data object"\) but its tags do not cite it/);
      assert.match(error.message, /Add '@P8-01' to its tag list/);
      assert.match(error.message, /verdicts\.require/);
      return true;
    },
  );
  assert.equal(info.annotations.length, 0, 'nothing is recorded for an uncited rule');
});

test('a named check of any kind, in check or checkOrStop, throws the same way', () => {
  const { verdicts } = verdictsOf(['@P8-02']);
  assert.throws(() => verdicts.checkOrStop('P8-01', 'a valid submission is created', HOLDS), UncitedRuleError);
  assert.throws(
    () => verdicts.check('P8-04', 'data.status is PENDING', equals('PENDING', 'PENDING')),
    UncitedRuleError,
  );
});

test('a check of a cited rule is recorded', () => {
  const { verdicts, info } = verdictsOf(['@P8-01']);
  assert.equal(verdicts.check('P8-01', 'the answer is a data object', HOLDS), true);
  assert.deepEqual(
    info.annotations.map((a) => a.type),
    [CHECK_ANNOTATION],
  );
});

test('a precondition (require) need not be cited: it holds and is recorded, or blocks the test by its rule', () => {
  const { verdicts, info } = verdictsOf(['@P8-02']);
  verdicts.require('P8-01', 'the valid twin is created', HOLDS);
  assert.equal(info.annotations.length, 1);
});

test('a rule the ledger does not have is refused before the citation is looked at', () => {
  const { verdicts } = verdictsOf(['@P8-99']);
  assert.throws(() => verdicts.check('P8-99', 'anything', HOLDS), /P8-99/);
});

/** An answer as the client records it, to a request at `url`. */
const answer = (status: number, url = 'https://bank.example/pacs008'): Exchange =>
  ({
    request: { url },
    response: { status, text: '{"errors":["creditor account"]}', json: { errors: ['x'] }, headers: {} },
  }) as unknown as Exchange;

test('a named check judges around itself: a refusal, then the assumptions its rule leaves to the profile', () => {
  const { verdicts, info } = verdictsOf(['@P8-10'], { refusalStatus: { validation: [400] }, errorBody: 'errors' });
  assert.equal(verdicts.check('P8-10', 'the request is refused', refusedAs(answer(422), 'validation')), true);
  assert.deepEqual(
    info.annotations.map((a) => `${a.type} ${a.description?.match(/[A-Z]+\d?-\d+/)?.[0]}`),
    [`${CHECK_ANNOTATION} P8-10`, 'assumption not met ERR-01', `${CHECK_ANNOTATION} ERR-02`],
  );
});

test('a refusal that does not hold judges nothing after it', () => {
  const { verdicts, info } = verdictsOf(['@P8-10'], { refusalStatus: { validation: [400] } });
  assert.throws(() => verdicts.check('P8-10', 'the request is refused', refusedAs(answer(201), 'validation')));
  assert.equal(info.annotations.length, 1, 'the failed check only, no assumption on its status');
});

test('a declared shape refused blocks the test by its assumption, before the rule is judged', () => {
  const { verdicts, info } = verdictsOf([]);
  assert.throws(() =>
    verdicts.require('CXL-01', 'the cancellation is accepted', acceptedInDeclaredShape(answer(400), 'CXL-06')),
  );
  assert.deepEqual(
    info.annotations.map((a) => a.type),
    [SKIP_ANNOTATION],
  );
  assert.match(info.annotations[0]!.description!, /assumption CXL-06/);
});
