/** messages/answers.ts notificationCarries: a notification names a payment by its whole id, anywhere in its payload. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createdCancellationIdIn, createdIdOf, notificationCarries } from '../../../messages/answers';

test('a notification carries an id as a whole, at any depth, in a link or a compact JWS; never inside a longer id', () => {
  assert.equal(notificationCarries({ data: { id: '17' } }, '17'), true);
  assert.equal(notificationCarries({ data: { id: '170' } }, '17'), false, 'payment 17 is not payment 170');
  assert.equal(notificationCarries({ at: '2026-12-02T17:05:00Z' }, '17'), false, 'nor a time that holds its digits');
  assert.equal(notificationCarries(['https://bank.example/payments/pacs008/v08/17'], '17'), true);
  assert.equal(notificationCarries({ id: '5f0c6a2e-8b1d-4c3e' }, '5f0c6a2e-8b1d'), false);
  const jws = `e30.${Buffer.from(JSON.stringify({ paymentsServiceId: 'PSI1' })).toString('base64url')}.sig`;
  assert.equal(notificationCarries(jws, 'PSI1'), true);
  assert.equal(notificationCarries('payment a+b settled', 'a+b'), true, 'an id is matched as text, not as a pattern');
});

test('a return’s or refund’s id: its data’s, else the last segment of its Location', () => {
  const answer = (json: unknown, location?: string) =>
    ({ response: { status: 201, headers: location ? { location } : {}, json } }) as never;
  const api = { idFields: ['paymentsServiceId'] };
  assert.equal(createdIdOf(api, answer({ data: { paymentsServiceId: 'R-1' } }, '/x/R-2')), 'R-1');
  assert.equal(createdIdOf(api, answer({}, '/payments/pacs002/v12/R-2')), 'R-2');
  assert.equal(createdIdOf(api, answer(undefined, 'https://bank.example/payments/pacs004/v08/R%2F3?x=1')), 'R/3');
  assert.equal(createdIdOf(api, answer(undefined)), undefined);
  assert.equal(createdIdOf(api, answer({ paymentsServiceId: 'R-4' }, '/x/R-5')), 'R-4', 'at the top level: not shown');
});

test('a cancellation’s id: as a return’s, else its cancellationId in data or at the top level', () => {
  const response = (json: unknown, location?: string) => ({
    headers: (location ? { location } : {}) as Record<string, string>,
    json,
  });
  const idFields = ['paymentsServiceId'];
  assert.equal(
    createdCancellationIdIn(idFields, response({ data: { paymentsServiceId: 'C-1', cancellationId: 'X' } })),
    'C-1',
  );
  assert.equal(createdCancellationIdIn(idFields, response({}, '/payments/camt029/v09/C-2')), 'C-2');
  assert.equal(createdCancellationIdIn(idFields, response({ data: { cancellationId: 'C-3' } })), 'C-3');
  assert.equal(createdCancellationIdIn(idFields, response({ cancellationId: 'C-4' })), 'C-4');
  assert.equal(createdCancellationIdIn(idFields, response({ status: 'RECEIVED' })), undefined);
});
