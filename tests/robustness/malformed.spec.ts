/**
 * Malformed and unusual bodies for POST pacs008 (spec §2.2, §4.2, §7), judged by what is documented:
 * a body that is not the JSON message is refused (ROB-01), a body not declared JSON is refused
 * (AT-07), and input the spec has no rule about never gets a 5xx and, when accepted, changes nothing
 * but what its documented fields say (ROB-03) — read back through pacs.002 and the beneficiary's
 * incoming view. Whether such input is refused or accepted is the profile's assumption (ROB-04). The
 * valid twin goes first, and the SCA hd always matches the bytes sent.
 */
import { test } from '../../fixtures/test';
import { RawBody, type Api } from '../../fixtures/api';
import { OVERSIZED_MIN_BYTES, robustnessCases, rulesOfCase, type RobustnessCase } from '../../fixtures/catalogues/robustness-cases';
import { judgeUnusualBody } from '../../fixtures/robustness-oracle';
import { firstStatusEntry, readStatus, requireId, submitPayment } from '../../fixtures/flows/payment';
import type { Exchange } from '../../helpers/http';
import { beneficiaryOf, paymentTo, readIncoming } from '../../fixtures/flows/incoming';
import type { Verdicts } from '../../fixtures/verdicts';
import type { Clients } from '../../fixtures/target';
import { paymentIds, paymentTransaction, type Pacs008Message } from '../../helpers/messages/pacs008';

/** An accepted unusual message must be exactly the payment its documented fields describe. */
async function checkUnchanged(api: Api, verdicts: Verdicts, clients: Clients, message: Pacs008Message, accepted: Exchange): Promise<void> {
  const id = requireId(api, verdicts, accepted, 'the accepted message names its payment');
  const status = await readStatus(api, id, { label: 'read back the accepted payment (pacs.002)' });
  const entry = firstStatusEntry(status.exchange.response.json);
  const ids = paymentIds(message);
  const echoed = { orgnlMsgId: (entry?.orgnlGrpInf as Record<string, unknown> | undefined)?.orgnlMsgId, orgnlEndToEndId: entry?.orgnlEndToEndId, orgnlTxId: entry?.orgnlTxId };
  verdicts.equal('ROB-03', 'pacs.002 reports the payment with the identifiers sent', echoed, { orgnlMsgId: ids.msgId, orgnlEndToEndId: ids.endToEndId, orgnlTxId: ids.txId });
  const beneficiary = beneficiaryOf(clients);
  if (beneficiary === clients.primary) return;
  const incoming = await readIncoming(api, id, { client: beneficiary, label: 'the beneficiary reads the accepted payment' });
  if (incoming.response.status < 200 || incoming.response.status >= 300) {
    test.info().annotations.push({ type: 'note', description: `the incoming view answered ${incoming.response.status}: amount and debtor not compared` });
    return;
  }
  const seen = (incoming.response.json as Pacs008Message | undefined)?.fitoFICstmrCdtTrf?.cdtTrfTxInf?.[0];
  const sent = paymentTransaction(message);
  verdicts.equal('ROB-03', 'the beneficiary sees the amount and debtor sent', { amount: seen?.intrBkSttlmAmt, debtor: seen?.dbtr }, { amount: sent.intrBkSttlmAmt, debtor: sent.dbtr });
}

async function runCase(c: RobustnessCase, api: Api, verdicts: Verdicts, clients: Clients, seed: string): Promise<void> {
  const twin = await submitPayment(api, paymentTo(beneficiaryOf(clients), seed), { label: 'valid twin' });
  verdicts.requireStatus('P8-01', 'the valid twin is created (or the case proves nothing)', twin.exchange, [201]);
  const message = paymentTo(beneficiaryOf(clients), seed);
  const bytes = c.body(JSON.stringify(message), 'fitoFICstmrCdtTrf');
  if (c.refusal === 'tooLarge') verdicts.require('ROB-03', 'the large body is over 2 MiB', { ok: Buffer.byteLength(bytes) > OVERSIZED_MIN_BYTES });
  const { exchange } = await submitPayment(api, new RawBody(bytes), { ...(c.contentType ? { headers: { 'content-type': c.contentType } } : {}), label: `unusual body: ${c.name}` });
  if (judgeUnusualBody(verdicts, api.profile, c, exchange, 'POST pacs008')) await checkUnchanged(api, verdicts, clients, message, exchange);
}

test.describe('robustness: unusual submissions', { tag: '@op:submitPayment' }, () => {
  for (const c of robustnessCases) {
    test(`${c.kind === 'extra' ? 'never a 5xx' : 'refuses'}: ${c.name}`, { tag: rulesOfCase(c).map((r) => `@${r}`) }, async ({ api, verdicts, clients, seed }) => {
      await runCase(c, api, verdicts, clients, seed);
    });
  }
});
