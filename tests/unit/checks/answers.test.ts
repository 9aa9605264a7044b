/**
 * The value comparisons checks use: JSON objects are unordered (RFC 8259 §4), so a server that writes
 * an amount's members in another order sends the same amount; `holds` lets a part of a message carry
 * members of its own. Run: node --import tsx --test tests/unit/checks/answers.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  carriesId,
  readableResolution,
  decidedWithin,
  equals,
  holds,
  jsonAnswer,
  localDateTime,
  mostInFlight,
  notifiesOnly,
  notResolvedAs,
} from '../../../checks/answers';

test('equals ignores the order of an object’s members, nothing else', () => {
  assert.equal(equals({ ccy: 'GBP', value: 12.5 }, { value: 12.5, ccy: 'GBP' }).ok, true);
  assert.equal(equals({ value: 12.5, ccy: 'GBP' }, { value: 12.5, ccy: 'GBP', extra: 1 }).ok, false);
  assert.equal(equals({ value: 12.5, ccy: 'GBP', extra: 1 }, { value: 12.5, ccy: 'GBP' }).ok, false);
  assert.equal(equals({ value: 12.51, ccy: 'GBP' }, { value: 12.5, ccy: 'GBP' }).ok, false);
  assert.equal(equals({ value: '12.5', ccy: 'GBP' }, { value: 12.5, ccy: 'GBP' }).ok, false);
  assert.equal(equals(['a', 'b'], ['b', 'a']).ok, false, 'an array keeps its order');
  assert.equal(equals(undefined, 'PENDING').ok, false);
  assert.equal(equals('PENDING', 'PENDING').ok, true);
});

test('holds: every expected member, in any order, members of its own allowed; arrays whole', () => {
  const sent = { nm: 'Ann Lee', pstlAdr: { adrLine: ['1 High St', 'Leeds'] } };
  assert.equal(holds({ pstlAdr: { adrLine: ['1 High St', 'Leeds'], ctry: 'GB' }, nm: 'Ann Lee' }, sent).ok, true);
  assert.equal(holds({ nm: 'Ann Lee' }, sent).ok, false, 'the address is missing');
  assert.equal(holds({ nm: 'Ann Lee', pstlAdr: { adrLine: ['1 High St'] } }, sent).ok, false, 'a line is missing');
  assert.equal(holds({ nm: 'Ann Lee', pstlAdr: { adrLine: ['Leeds', '1 High St'] } }, sent).ok, false);
  assert.equal(holds({ nm: 'Anne Lee', pstlAdr: sent.pstlAdr }, sent).ok, false);
  assert.equal(holds(null, sent).ok, false);
  assert.equal(holds([sent], sent).ok, false);
});

test('carriesId finds the id wherever a notification puts it: a member at any depth, a link, plain text, a JWS payload', () => {
  const id = '5f0c6a2e-8b1d-4c3e-9a7f-2d4b6e8c0a11';
  const jws = (payload: unknown): string =>
    ['{"alg":"RS256"}', JSON.stringify(payload)].map((p) => Buffer.from(p).toString('base64url')).join('.') + '.sig';
  for (const body of [
    { paymentsServiceId: id },
    { data: { id } },
    { links: [{ href: `https://bank.example/payments/pacs008/${id}` }] },
    `payment ${id} received`,
    jws({ event: 'incoming', resource: id }),
  ])
    assert.equal(carriesId(body, id).ok, true, JSON.stringify(body));
  for (const body of [{ paymentsServiceId: 'another' }, 'payment received', undefined, jws({ id: 'another' })])
    assert.equal(carriesId(body, id).ok, false, JSON.stringify(body));
  assert.equal(carriesId({ id }, undefined).ok, false, 'no id named: nothing to carry');
});

test('notifiesOnly: any number of notifications of the payments named, none of another', () => {
  const [first, sentinel] = ['pay-1', 'pay-2'];
  const received = [{ paymentsServiceId: first, sts: 'RCVD' }, { data: { id: first } }, `settled ${sentinel}`];
  assert.equal(notifiesOnly(received, [first, sentinel]).ok, true, 'a payment notified twice is one payment');
  assert.equal(notifiesOnly([], [first, sentinel]).ok, true);
  const second = notifiesOnly([...received, { paymentsServiceId: 'pay-3' }], [first, sentinel]);
  assert.equal(second.ok, false, 'a notification naming a third payment');
  assert.match(second.received ?? '', /1 naming neither: .*pay-3/);
});

test('jsonAnswer: a JSON body; an answer the spec does not show may carry none, never another type', () => {
  const answer = (status: number, type: string | undefined, text: string) =>
    ({
      label: 'answer',
      request: { method: 'POST', url: 'http://target/payments/pacs004/v08', headers: {} },
      response: {
        status,
        headers: type ? { 'content-type': type } : {},
        text,
        json: text === '' ? undefined : (JSON.parse(text) as unknown),
      },
      startedAt: '',
      durationMs: 0,
      retries: [],
    }) as unknown as Parameters<typeof jsonAnswer>[0];
  assert.equal(jsonAnswer(answer(201, 'application/json', '{"data":{}}')).ok, true);
  assert.equal(jsonAnswer(answer(201, undefined, '')).ok, false, 'a body is shown: it is there');
  assert.equal(jsonAnswer(answer(201, undefined, ''), { bodyOptional: true }).ok, true);
  assert.equal(jsonAnswer(answer(201, 'text/plain', '{"data":{}}'), { bodyOptional: true }).ok, false);
});

test('mostInFlight: how many exchanges were in flight at one moment; one answered as the next left is not', () => {
  const at = (ms: number, durationMs: number) => ({ startedAt: new Date(1_000_000 + ms).toISOString(), durationMs });
  assert.equal(mostInFlight([]), 0);
  assert.equal(mostInFlight([at(0, 10), at(10, 10), at(20, 10)]), 1, 'paced: each sent as the last was answered');
  assert.equal(mostInFlight([at(0, 50), at(10, 50), at(20, 5), at(100, 5)]), 3);
});

test('notResolvedAs: a camt.029 says an outcome in sts.conf or in its transaction’s txCxlSts (ISO’s ACCR or RJCR, or a profile code)', () => {
  const codes = ['CNCL'];
  assert.equal(notResolvedAs({ outcome: 'rejected', conf: 'RJCR', txCxlSts: 'RJCR' }, 'confirmed', codes).ok, true);
  assert.equal(notResolvedAs({ outcome: 'rejected', conf: 'RJCR', txCxlSts: 'ACCR' }, 'confirmed', codes).ok, false);
  assert.equal(notResolvedAs({ outcome: 'other', conf: 'XXXX', txCxlSts: 'CNCL' }, 'confirmed', codes).ok, false);
  assert.equal(notResolvedAs({ outcome: 'confirmed', conf: 'CNCL' }, 'confirmed', codes).ok, false);
  assert.equal(notResolvedAs({ outcome: 'confirmed', conf: 'CNCL', txCxlSts: 'RJCR' }, 'rejected', ['RJCR']).ok, false);
  assert.equal(notResolvedAs(undefined, 'confirmed', codes).ok, true, 'no camt.029 says nothing');
});

test('decidedWithin: a camt.029 read last has decided its cancellation unless its sts.conf is ISO’s pending PDCR', () => {
  assert.equal(decidedWithin({ outcome: 'rejected', conf: 'RJCR' }, 10_000).ok, true);
  assert.equal(
    decidedWithin({ outcome: 'other', conf: 'RJxx' }, 10_000).ok,
    true,
    'a code of the target’s own: CXL-06 judges it',
  );
  const pending = decidedWithin({ outcome: 'other', conf: 'PDCR' }, 10_000);
  assert.equal(pending.ok, false);
  assert.match(String(pending.expected), /not PDCR\) within polling\.timeoutMs \(10000 ms\)/);
});

test('readableResolution: a served camt.029 can be read only under the declared root', () => {
  const exchange = { response: { status: 200, headers: {}, text: '{}', json: {} } } as never;
  assert.equal(readableResolution({ exchange, body: { sts: { conf: 'RJCR' } } }, 'rsltnOfInvstgtn').ok, true);
  const unread = readableResolution({ exchange, body: undefined }, 'rsltnOfInvstgtn');
  assert.equal(unread.ok, false);
  assert.equal(unread.expected, 'a body under rsltnOfInvstgtn');
});

test('localDateTime: any ISO 8601 date-time without zone (seconds left out, a fraction after "." or ",", a space for T); a zone never', () => {
  for (const value of [
    '2026-12-03T06:18:00',
    '2026-12-03T06:18', // Java's LocalDateTime.toString() at second 0
    '2026-12-03T06:18:07.5',
    '2026-12-03T06:18:07.1234567', // .NET's round-trip format
    '2026-12-03T06:18:07,25',
    '2026-12-03 06:18:07.123456', // Python's str(datetime)
  ])
    assert.ok(localDateTime(value).ok, value);
  for (const value of [
    '2026-12-03T06:18:07Z',
    '2026-12-03T06:18:07+01:00',
    '2026-12-03T06:18Z',
    '2026-12-03',
    '2026-12-03 06:18:07Z',
    '2026-13-03T06:18:07',
    '2026-12-03T24:18:07',
    1733206687,
  ])
    assert.equal(localDateTime(value).ok, false, String(value));
});
