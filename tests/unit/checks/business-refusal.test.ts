/**
 * checks/payment-answers.ts expectBusinessRefusal: a refusal that comes as a 2xx and then a rejected
 * pacs.002 is followed by the id the answer names. For POST pacs004 and pacs007, whose answer the spec
 * does not show, that id may be in a Location header; an answer naming none blocks the test by the
 * assumption on that answer (RTR-37, RFD-07) instead of failing the rule it was about.
 * Run with `node --import tsx --test tests/unit/checks/business-refusal.test.ts`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestRecord } from '../../../checks/host';
import { Verdicts } from '../../../checks/verdicts';
import { expectBusinessRefusal } from '../../../checks/payment-answers';
import { checksOf, skipReasonOf } from '../../../ledger/outcomes';
import type { Profile } from '../../../profile/profile';
import type { Exchange } from '../../../transport/http';

function verdictsOf(): { verdicts: Verdicts; info: TestRecord } {
  const info: TestRecord = {
    tags: ['@RFD-08', '@P8-23'],
    titlePath: ['refunds/x.spec.ts', 'refunds', 'a refund by the payer’s institution is refused'],
    file: '/suite/tests/refunds/x.spec.ts',
    line: 1,
    column: 1,
    annotations: [],
  };
  const profile = { expectations: { assumptions: 'report', businessRejection: 'either' } } as unknown as Profile;
  return { verdicts: new Verdicts(profile, info, true), info };
}

const api = { idFields: ['paymentsServiceId'], profile: { expectations: { businessRejection: 'either' } } } as never;

/** A 202 with no body, and a Location header when given. */
const accepted = (location?: string): Exchange =>
  ({
    request: { url: 'https://bank.example/payments/pacs007/v08', method: 'POST' },
    response: { status: 202, text: '', headers: location ? { location } : {} },
  }) as unknown as Exchange;

const rejected = { txSts: 'RJCT', statusClass: 'rejected' as const, history: ['PDNG', 'RJCT'] };

test('a 202 naming its refund only in Location: followed by that id, and the rejection passes', async () => {
  const { verdicts, info } = verdictsOf();
  const settled: string[] = [];
  const way = await expectBusinessRefusal(api, verdicts, 'RFD-08', accepted('/payments/pacs002/v12/RF-1'), {
    settle: async (id) => {
      settled.push(id);
      return rejected;
    },
    unnamedBy: 'RFD-07',
  });
  assert.equal(way, 'status');
  assert.deepEqual(settled, ['RF-1']);
  assert.deepEqual(
    checksOf(info.annotations).filter((c) => !c.ok),
    [],
  );
});

test('a 202 naming no id at all blocks the test by the answer’s assumption, not the refusal’s rule', async () => {
  const { verdicts, info } = verdictsOf();
  await assert.rejects(
    expectBusinessRefusal(api, verdicts, 'RFD-08', accepted(), {
      settle: async () => assert.fail('nothing to follow'),
      unnamedBy: 'RFD-07',
    }),
  );
  const reason = skipReasonOf(info.annotations);
  assert.equal(reason?.kind, 'blocked');
  assert.equal(reason?.kind === 'blocked' && reason.by, 'assumption RFD-07');
  assert.deepEqual(
    checksOf(info.annotations).filter((c) => !c.ok && c.rule === 'RFD-08'),
    [],
  );
});

test('a payment’s answer naming no id (§2.3 documents data.paymentsServiceId) fails the rule', async () => {
  const { verdicts, info } = verdictsOf();
  // Without a test runner a failed check throws (checks/host.ts); in a test it is a soft failure.
  await assert.rejects(
    expectBusinessRefusal(api, verdicts, 'P8-23', accepted(), {
      settle: async () => assert.fail('nothing to follow'),
    }),
    /data\.paymentsServiceId/,
  );
  assert.deepEqual(
    checksOf(info.annotations)
      .filter((c) => !c.ok)
      .map((c) => c.rule),
    ['P8-23'],
  );
});
