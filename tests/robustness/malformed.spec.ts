/**
 * Malformed and unusual bodies for POST pacs008 (spec §2.2, §4.2, §7), judged by what is documented:
 * a body that is not the JSON message is refused (ROB-01), a body not declared JSON is refused
 * (AT-07), and input the spec has no rule about never gets a 5xx and, when accepted, changes nothing
 * but what its documented fields say (ROB-03) — read back through pacs.002 and the beneficiary's
 * incoming view. Whether such input is refused or accepted is the profile's assumption (ROB-04). The
 * valid twin goes first, and the SCA hd always matches the bytes sent.
 */
import { test } from '../../fixtures/test';
import { RawBody, type Api } from '../../client/api';
import { OVERSIZED_MIN_BYTES, robustnessCases, type RobustnessCase } from '../../cases/robustness-cases';
import { judgeUnusualBody, rulesOfCase, titleOfCase } from '../../checks/robustness-oracle';
import { firstStatusEntry, readStatus, submitPayment } from '../../client/flows/payment';
import type { Exchange } from '../../transport/http';
import { beneficiaryOf, paymentTo, readIncoming } from '../../client/flows/incoming';
import type { Verdicts } from '../../checks/verdicts';
import type { Clients } from '../../client/target';
import { paymentIds, paymentTransaction, type Pacs008Message } from '../../messages/pacs008';
import { ensure } from '../../client/context';
import { isDeepStrictEqual } from 'node:util';
import { twinAccepted, equals, holds } from '../../checks/answers';
import { is2xx } from '../../messages/http-status';
import { requireId, incomingTransaction } from '../../checks/payment-answers';

/** The identifiers a pacs.002 echoes, and the ones a message sent. */
function echoedIds(status: Exchange): Record<string, unknown> {
  const entry = firstStatusEntry(status.response.json);
  return {
    orgnlMsgId: (entry?.orgnlGrpInf as Record<string, unknown> | undefined)?.orgnlMsgId,
    orgnlEndToEndId: entry?.orgnlEndToEndId,
    orgnlTxId: entry?.orgnlTxId,
  };
}
function sentIds(message: Pacs008Message): Record<string, unknown> {
  const ids = paymentIds(message);
  return { orgnlMsgId: ids.msgId, orgnlEndToEndId: ids.endToEndId, orgnlTxId: ids.txId };
}

/** An accepted unusual message must be exactly the payment its documented fields describe. */
async function checkUnchanged(
  api: Api,
  verdicts: Verdicts,
  clients: Clients,
  message: Pacs008Message,
  accepted: Exchange,
  twin: { message: Pacs008Message; exchange: Exchange },
): Promise<void> {
  const id = requireId(api, verdicts, accepted, 'the accepted message names its payment');
  const status = await readStatus(api, id, { label: 'read back the accepted payment (pacs.002)' });
  const echoed = echoedIds(status.exchange);
  if (!isDeepStrictEqual(echoed, sentIds(message))) {
    // Only a difference the unusual input made is ROB-03's: a target whose pacs.002 misreports any payment breaks STS-05, whose tests say so.
    const twinStatus = await readStatus(
      api,
      requireId(api, verdicts, twin.exchange, 'the valid twin names its payment'),
      { label: 'read back the valid twin (pacs.002)' },
    );
    ensure(
      'STS-05',
      isDeepStrictEqual(echoedIds(twinStatus.exchange), sentIds(twin.message)),
      `pacs.002 echoes the valid twin’s identifiers, but it answered ${JSON.stringify(echoedIds(twinStatus.exchange))}`,
    );
  }
  verdicts.check('ROB-03', 'pacs.002 reports the payment with the identifiers sent', equals(echoed, sentIds(message)));
  const beneficiary = beneficiaryOf(clients);
  if (beneficiary === clients.primary) return;
  const incoming = await readIncoming(api, id, {
    client: beneficiary,
    label: 'the beneficiary reads the accepted payment',
  });
  if (!is2xx(incoming)) {
    test.info().annotations.push({
      type: 'note',
      description: `the incoming view answered ${incoming.response.status}: amount and debtor not compared`,
    });
    return;
  }
  const seen = incomingTransaction(api, verdicts, incoming);
  const sent = paymentTransaction(message);
  verdicts.check(
    'ROB-03',
    'the beneficiary sees the amount and the debtor’s name sent',
    holds(
      { amount: seen.intrBkSttlmAmt, debtor: seen.dbtr?.nm },
      { amount: sent.intrBkSttlmAmt, debtor: sent.dbtr.nm },
    ),
  );
}

async function runCase(c: RobustnessCase, api: Api, verdicts: Verdicts, clients: Clients, seed: string): Promise<void> {
  const twinMessage = paymentTo(beneficiaryOf(clients), seed);
  const twin = await submitPayment(api, twinMessage, { label: 'valid twin' });
  twinAccepted(verdicts, twin.exchange, { rule: 'P8-01', status: [201] });
  const message = paymentTo(beneficiaryOf(clients), seed);
  const bytes = c.body(JSON.stringify(api.asSent('submitPayment', message)), 'fitoFICstmrCdtTrf');
  if (c.refusal === 'tooLarge')
    verdicts.checkOrStop('ROB-03', 'the large body is over 2 MiB', {
      ok: Buffer.byteLength(bytes) > OVERSIZED_MIN_BYTES,
    });
  const { exchange } = await submitPayment(api, new RawBody(bytes), {
    ...(c.contentType ? { headers: { 'content-type': c.contentType } } : {}),
    label: `unusual body: ${c.name}`,
    sentAs: 'mutant',
  });
  if (judgeUnusualBody(verdicts, api.profile, c, exchange, 'POST pacs008'))
    await checkUnchanged(api, verdicts, clients, message, exchange, { message: twinMessage, exchange: twin.exchange });
}

test.describe('robustness: unusual submissions', { tag: '@op:submitPayment' }, () => {
  for (const c of robustnessCases) {
    test(titleOfCase(c), {
      tag: rulesOfCase(c).map((r) => `@${r}`),
    }, async ({ api, verdicts, clients, seed }) => {
      await runCase(c, api, verdicts, clients, seed);
    });
  }
});
