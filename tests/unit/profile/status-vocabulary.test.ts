/**
 * Which codes are final (profile/status-vocabulary.ts) and the judges and poll that read it: §3's
 * final codes (ACCC, RJTC) are followed only by a final code of their class; any other code is final or interim as the target uses it,
 * a poll follows a code only ISO's table takes as final until it holds, and the success status of
 * the operations §4.4 gives none is the profile's, a Location naming the resource.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyStatus,
  finalityOf,
  isDocumentedFinal,
  isFinalStatus,
  judgedAgainst,
  statusChange,
} from '../../../profile/status-vocabulary';
import { acceptedAs, locationNames, staysSettled } from '../../../checks/answers';
import { awaitFinalStatus } from '../../../client/flows/payment';
import type { Api } from '../../../client/api';
import type { Exchange } from '../../../transport/http';
import { loadProfile, type Expectations, type Profile } from '../../../profile/profile';

const lists = (pending: string[], accepted: string[] = ['ACCC']): Pick<Expectations, 'statusCodes'> => ({
  statusCodes: { pending, accepted, rejected: ['RJCT'], cancelled: ['CANC'] },
});
const local = lists(['PEND']);
const learned = lists(['ACSP', 'ACSC']);

test('finality: §3’s codes by rule, the profile’s lists (pending first), then ISO’s table, tentatively', () => {
  assert.equal(finalityOf('ACCC', local), 'documented');
  assert.equal(finalityOf('RJTC', local), 'documented');
  assert.equal(finalityOf('ACCC', lists(['ACCC'])), 'documented', 'a profile never makes ACCC interim');
  assert.equal(finalityOf('RJCT', local), 'documented', 'ISO’s spelling of §3’s RJTC');
  assert.equal(finalityOf('CANC', local), 'declared');
  assert.equal(finalityOf('ACSC', local), 'iso', 'unlisted: final in ISO’s table, until seen followed');
  assert.equal(finalityOf('ACSC', learned), 'interim');
  assert.equal(finalityOf('ACSC', lists(['ACSC'], ['ACCC', 'ACSC'])), 'interim', 'listed as pending wins');
  assert.equal(finalityOf('PDNG', local), 'interim');
  assert.equal(finalityOf('XXXX', local), 'unknown');
  assert.equal(finalityOf(undefined, local), 'unknown');
  assert.equal(classifyStatus('ACSC', local), 'accepted');
  assert.equal(classifyStatus('ACSC', learned), 'pending');
  assert.equal(classifyStatus('ACCR', local), 'cancelled', 'ISO’s AcceptedCancellationRequest: a cancelled payment');
  assert.equal(
    classifyStatus('ACPD', local),
    'pending',
    'ISO’s AcceptedClearingProcessed: handed to clearing, not settled',
  );
  assert.equal(classifyStatus('ACCC', lists(['ACCC'])), 'accepted');
  assert.equal(classifyStatus('constructor', local), undefined);
  assert.equal(isFinalStatus('ACSC', local), true);
  assert.equal(isFinalStatus('ACSC', learned), false);
  assert.equal(isDocumentedFinal('ACSC'), false);
});

test('after ACCC or RJTC (RJCT) an interim code or one of the other class is a violation; after any other final code a change is a lesson; after an interim one, nothing', () => {
  assert.equal(statusChange('ACCC', 'PEND', local), 'violation');
  // §3 shows no transitions: after ACCC or RJTC another final code of the same class may come.
  assert.equal(statusChange('ACCC', 'ACSC', local), 'none');
  assert.equal(statusChange('RJTC', 'RJCT', local), 'none');
  assert.equal(statusChange('ACCC', 'ACSP', local), 'violation', 'accepted, then interim');
  assert.equal(statusChange('ACCC', 'RJCT', local), 'violation', 'accepted, then rejected');
  assert.equal(statusChange('ACSC', 'ACCC', local), 'lesson');
  assert.equal(statusChange('RJCT', 'ACCC', local), 'violation', 'a rejection, in ISO’s spelling, later accepted');
  assert.equal(statusChange('CANC', 'ACCC', local), 'lesson');
  assert.equal(statusChange('ACSC', 'ACCC', learned), 'none');
  assert.equal(statusChange('ACCC', 'ACCC', local), 'none');
  assert.equal(statusChange('PEND', 'ACCC', local), 'none');
});

test('a read is judged against the first of §3’s final codes read, once one was; else against the last code', () => {
  assert.equal(judgedAgainst(['PDNG', 'ACCC', 'ACSC'], local), 'ACCC');
  assert.equal(
    statusChange(judgedAgainst(['ACCC', 'ACSC'], local)!, 'PDNG', local),
    'violation',
    'ACCC, ACSC, then interim',
  );
  assert.equal(judgedAgainst(['PDNG', 'ACSC'], local), 'ACSC');
  assert.equal(judgedAgainst([], local), undefined);
});

test('a settled payment stays settled: after ACCC, a final accepted code; after ACSC, any accepted code (CXL-03)', () => {
  assert.equal(staysSettled('ACCC', 'ACCC', local).ok, true);
  assert.equal(staysSettled('ACCC', 'ACSC', local).ok, true);
  assert.equal(staysSettled('ACCC', 'ACSP', local).ok, false);
  assert.equal(staysSettled('ACSC', 'ACCC', local).ok, true);
  assert.equal(staysSettled('ACSC', 'CANC', local).ok, false);
  assert.equal(staysSettled('ACSC', 'PEND', local).ok, false);
});

const answer = (status: number, headers: Record<string, string> = {}): Exchange =>
  ({
    label: 'x',
    request: { method: 'POST', url: 'https://bank.example/payments/pacs004/v08', headers: {} },
    response: { status, headers, text: '', json: undefined },
  }) as unknown as Exchange;

test('the success status of camt.056, pacs.004, pacs.007 is the profile’s (default 201); a Location names the resource', () => {
  assert.equal(acceptedAs(answer(201), 'returnPayment', {}).ok, true);
  assert.equal(acceptedAs(answer(202), 'returnPayment', {}).ok, false);
  assert.equal(acceptedAs(answer(202), 'refund', { acceptanceStatus: { refund: [202] } }).ok, true);
  assert.equal(acceptedAs(answer(201), 'refund', { acceptanceStatus: { refund: [202] } }).ok, false);
  assert.equal(acceptedAs(answer(201), 'cancel', { acceptanceStatus: { refund: [202] } }).ok, true);
  assert.equal(locationNames(answer(202), 'ID-1').ok, true, 'no Location: nothing to check');
  assert.equal(locationNames(answer(202, { location: '/payments/pacs002/v12/ID-1' }), 'ID-1').ok, true);
  assert.equal(locationNames(answer(202, { location: 'https://bank.example/status/ID%2F1' }), 'ID/1').ok, true);
  assert.equal(locationNames(answer(202, { location: '/payments/pacs002/v12/ID-2' }), 'ID-1').ok, false);
  assert.equal(locationNames(answer(202, { location: 'http://[bad' }), 'ID-1').ok, false);
  assert.equal(locationNames(answer(202, { location: '/x/ID-2' }), undefined).ok, true, 'no id to compare with');
});

/** An Api whose status reads answer each code of `timeline` from its start (ms after the first read) on. */
function reading(timeline: readonly [number, string][], statusCodes: Expectations['statusCodes']): Api {
  const base = loadProfile('local');
  const profile: Profile = {
    ...base,
    expectations: { ...base.expectations, statusCodes },
    polling: { intervalMs: 10, maxIntervalMs: 40, timeoutMs: 5000 },
  };
  let started: number | undefined;
  const read = async (): Promise<Exchange> => {
    started ??= Date.now();
    const elapsed = Date.now() - started;
    const txSts = timeline.filter(([from]) => from <= elapsed).at(-1)![1];
    return {
      label: 'read',
      request: { method: 'GET', url: 'https://bank.example/payments/pacs002/v12/P1', headers: {} },
      response: { status: 200, headers: {}, text: '', json: { fitoFIPmtStsRpt: { txInfAndSts: [{ txSts }] } } },
    } as unknown as Exchange;
  };
  return { profile, read } as unknown as Api;
}

test('the poll follows a code only ISO’s table takes as final until it holds, and stops at once at a listed or documented one', async () => {
  // ACSC shows for less time than the payment took to reach it, as a settlement's second leg does;
  // for 800 ms, so that a poll on a loaded machine (reads 40 ms apart at most) still reads it.
  const via: [number, string][] = [
    [0, 'ACSP'],
    [1000, 'ACSC'],
    [1800, 'ACCC'],
  ];
  const followed = await awaitFinalStatus(reading(via, local.statusCodes), 'P1');
  assert.equal(followed.txSts, 'ACCC', 'ACSC, unlisted, is followed to ACCC');
  assert.deepEqual([...new Set(followed.history)], ['ACSP', 'ACSC', 'ACCC']);
  const declared = await awaitFinalStatus(reading(via, lists(['ACSP'], ['ACSC']).statusCodes), 'P1');
  assert.equal(declared.txSts, 'ACSC', 'a profile that declares ACSC accepted ends there');
  const held = reading(
    [
      [0, 'ACSP'],
      [30, 'ACSC'],
    ],
    local.statusCodes,
  );
  const stays = await awaitFinalStatus(held, 'P1');
  assert.equal(stays.txSts, 'ACSC', 'an unlisted final code that holds is final');
  assert.ok(stays.history.filter((c) => c === 'ACSC').length > 1, 'it was read again before it was believed');
});
