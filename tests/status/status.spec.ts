/**
 * Payment status (spec §2.4, §3, §4.3, §5, §9): the pacs.002 report echoes the original identifiers,
 * the status moves from pending to a final state and never back, and only the submitting client may
 * read it, with no sca-token.
 */
import { randomUUID } from 'node:crypto';
import { test, expect } from '../../fixtures/test';
import { expectSchema } from '../../fixtures/schema-check';
import { expectMonotonic, firstStatusEntry, readStatus, submitPayment } from '../../fixtures/flows';
import { paymentToAcceptance, paymentToFinalForRereads, paymentToRejection } from '../../fixtures/catalogues/observations';
import type { Api } from '../../fixtures/api';
import type { Verdicts } from '../../fixtures/verdicts';
import { brief } from '../../fixtures/verdicts';
import { buildPacs008, paymentIds, type Pacs008Options } from '../../helpers/messages/pacs008';
import { pacs002Schema } from '../../helpers/schemas/pacs002';
import { classifyStatus, isProfileCode, ISO_STATUS_CODES } from '../../helpers/status-vocabulary';

async function submitted(api: Api, verdicts: Verdicts, options: Pacs008Options) {
  const message = buildPacs008(options);
  const { exchange, paymentsServiceId } = await submitPayment(api, message);
  verdicts.expectStatus(exchange, [201], 'payment submission');
  expect(paymentsServiceId, 'data.paymentsServiceId').toBeTruthy();
  return { message, id: paymentsServiceId! };
}

async function expectReport(api: Api, verdicts: Verdicts, seed: string, version?: string): Promise<void> {
  const { message, id } = await submitted(api, verdicts, { seed });
  const read = await readStatus(api, id, version ? { version } : {});
  verdicts.expectStatus(read.exchange, [200], `status on pacs002 ${version ?? '(default version)'}`);
  expectSchema(pacs002Schema, read.exchange.response.json, 'pacs.002 status report');
  const entry = firstStatusEntry(read.exchange.response.json)!;
  const ids = paymentIds(message);
  const orgnlGrpInf = entry.orgnlGrpInf as Record<string, unknown>;
  expect(orgnlGrpInf.orgnlMsgId, 'orgnlMsgId echoes grpHdr.msgId').toBe(ids.msgId);
  expect(entry.orgnlEndToEndId, 'orgnlEndToEndId echoes endToEndId').toBe(ids.endToEndId);
  expect(entry.orgnlTxId, 'orgnlTxId echoes txId').toBe(ids.txId);
  expect(String(orgnlGrpInf.orgnlMsgNmId), 'orgnlMsgNmId names a pacs.008 message').toMatch(/^pacs\.008(\.\d{3}\.\d{2})?$/);
  expect(ISO_STATUS_CODES.has(String(entry.txSts)), `txSts ${String(entry.txSts)} is an ISO 20022 status code`).toBe(true);
}

test.describe('payment status report', () => {
  test('a status read gets 200 and a pacs.002 that echoes the payment', { tag: ['@STS-01', '@STS-02', '@STS-03', '@STS-04', '@STS-05', '@STS-06', '@STS-07', '@STS-11'] }, async ({ api, verdicts, seed }) => {
    // api.read never sends an sca-token: a 200 here is also STS-11.
    await expectReport(api, verdicts, seed);
  });

  test('every pacs002 version the profile lists serves the status', { tag: ['@VER-02'] }, async ({ api, verdicts, seed, profile }) => {
    const versions = profile.operations.paymentStatus.versions;
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) await test.step(`pacs002 ${version}`, () => expectReport(api, verdicts, `${seed}-${version}`, version));
  });

  test('the status query needs no sca-token, even right after submission', { tag: ['@STS-11'] }, async ({ api, verdicts, seed }) => {
    const { id } = await submitted(api, verdicts, { seed });
    const read = await readStatus(api, id, { label: 'read status with Authorization and X-Client-Id only' });
    expect(Object.keys(read.exchange.request.headers).map((h) => h.toLowerCase())).not.toContain('sca-token');
    verdicts.expectStatus(read.exchange, [200], 'status without sca-token');
  });
});

test.describe('payment status lifecycle', () => {
  // The payment of each test here was submitted when the worker started and followed to its final
  // status in the background (fixtures/catalogues/observations.ts): the settlement waits overlap.
  test('a valid payment goes from pending to accepted, with the profile interim code', { tag: ['@STS-08', '@STS-14'] }, async ({ api, verdicts, observe }) => {
    const { submission, firstRead, final } = await observe(paymentToAcceptance);
    verdicts.expectStatus(submission.exchange, [201], 'payment submission');
    expect(firstRead, `data.paymentsServiceId ${brief(submission.exchange)}`).toBeDefined();
    verdicts.expectStatus(firstRead!.exchange, [200], 'status right after submission');
    const firstClass = classifyStatus(firstRead!.txSts, api.profile.expectations);
    if (firstClass === 'pending') {
      verdicts.assume(isProfileCode(firstRead!.txSts, 'pending', api.profile.expectations), `interim txSts ${firstRead!.txSts} is one of ${api.profile.expectations.statusCodes.pending.join(', ')}`);
    } else {
      test.info().annotations.push({ type: 'note', description: `the payment was already ${firstRead!.txSts} on the first read: the interim code was not observed` });
    }
    expect(final!.statusClass, `final status ${final!.txSts}`).toBe('accepted');
    expect(final!.txSts, 'the spec names ACCC for accepted; the profile may list ACSC').toMatch(/^AC[CS]C$/);
    verdicts.assume(isProfileCode(final!.txSts, 'accepted', api.profile.expectations), `accepted code ${final!.txSts} is one of ${api.profile.expectations.statusCodes.accepted.join(', ')}`);
  });

  test('a rejected payment is reported in txSts with a reason code, not as an HTTP error', { tag: ['@STS-09', '@STS-15'] }, async ({ verdicts, profile, observe }) => {
    const trigger = profile.expectations.rejectTrigger;
    test.skip(!trigger, 'the profile names no reject trigger');
    const observed = await observe(paymentToRejection);
    const { submission, final } = observed!;
    verdicts.expectStatus(submission.exchange, [201], 'payment submission (a rejection is not an HTTP error)');
    expect(final, `data.paymentsServiceId ${brief(submission.exchange)}`).toBeDefined();
    expect(final!.statusClass, `final status ${final!.txSts}`).toBe('rejected');
    expect(final!.reasonCodes.length, `stsRsnInf[].rsn.cd carries a reason ${brief(final!.last)}`).toBeGreaterThan(0);
    expect(final!.txSts, 'a rejection is RJTC (spec) or RJCT (ISO)').toMatch(/^RJ(TC|CT)$/);
    verdicts.assume(isProfileCode(final!.txSts, 'rejected', profile.expectations), `rejection code ${final!.txSts} is one of ${profile.expectations.statusCodes.rejected.join(', ')}`);
    verdicts.assume(final!.reasonCodes.includes(trigger!.reasonCode), `reason ${trigger!.reasonCode} expected, got ${final!.reasonCodes.join(', ')}`);
  });

  test('a final status never moves and never changes on later reads', { tag: ['@STS-10'] }, async ({ api, verdicts, observe }) => {
    const { submission, final } = await observe(paymentToFinalForRereads);
    verdicts.expectStatus(submission.exchange, [201], 'payment submission');
    expect(final, `data.paymentsServiceId ${brief(submission.exchange)}`).toBeDefined();
    const id = submission.paymentsServiceId!;
    const later: string[] = [];
    for (let i = 0; i < 5; i++) later.push((await readStatus(api, id, { label: `read ${i + 1} after the final status` })).txSts ?? '(none)');
    expectMonotonic([...final!.history, ...later], api);
    expect(later, 'every later read repeats the final status').toEqual(later.map(() => final!.txSts));
  });
});

test.describe('payment status: refusals', () => {
  test('an unknown paymentsServiceId is not served', { tag: ['@STS-12'] }, async ({ api, verdicts, seed }) => {
    const { id } = await submitted(api, verdicts, { seed });
    const twin = await readStatus(api, id, { label: 'valid twin: a known id' });
    verdicts.expectStatus(twin.exchange, [200], 'valid twin');
    for (const unknown of [randomUUID(), `PSI${Date.now()}00000000`, `${id}0`]) {
      const read = await readStatus(api, unknown, { label: `unknown id ${unknown}` });
      verdicts.expectRefused(read.exchange, 'notFound');
    }
  });

  test("a client cannot read another client's payment status", { tag: ['@STS-13'] }, async ({ api, verdicts, seed, clients }) => {
    const { id } = await submitted(api, verdicts, { seed });
    const own = await readStatus(api, id, { label: 'valid twin: the submitting client reads it' });
    verdicts.expectStatus(own.exchange, [200], 'valid twin');
    const foreign = await readStatus(api, id, { client: clients.secondary!, label: 'the secondary client reads it' });
    verdicts.expectRefused(foreign.exchange, 'notFound');
  });
});
