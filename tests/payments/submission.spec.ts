/**
 * Payment submission, positive side (spec §2.2, §2.3, §4.2, §9): a valid pacs.008 is created on every
 * path version the profile lists, the response has the documented shape, and each optional part of
 * the message may be left out or used.
 */
import { test, takes } from '../../fixtures/test';
import {
  paymentOnEveryVersion,
  paymentToFinalBeforeAnother,
  paymentVariantToFinal,
} from '../../arrange/observation-catalogue';
import { resultOf } from '../../arrange/observations';
import { paymentVariants, variantMessage } from '../../cases/payment-variants';
import { dataOf, firstStatusEntry, readStatus, submitPayment } from '../../client/flows/payment';
import { answered } from '../../checks/verdicts';
import { buildPacs008, paymentIds, type Pacs008Message } from '../../messages/pacs008';
import {
  hasStatus,
  localDateTime,
  neverServerError,
  nonEmptyString,
  refusedAnswer,
  equals,
  endsIn,
} from '../../checks/answers';
import { RawBody, type Api } from '../../client/api';
import type { Exchange } from '../../transport/http';
import type { Verdicts } from '../../checks/verdicts';
import { echoesMsgId, requireId } from '../../checks/payment-answers';

/** A valid submission is created with a data object; `members` also checks each documented member (P8-02 to P8-05). */
async function checkCreated(
  api: Api,
  verdicts: Verdicts,
  seed: string,
  rule: string,
  version?: string,
  members = true,
): Promise<{ message: Pacs008Message; exchange: Exchange }> {
  const message = buildPacs008({ seed });
  const { exchange } = await submitPayment(api, message, version ? { version } : {});
  judgeCreated(api, verdicts, message, exchange, rule, version, members);
  return { message, exchange };
}

/** The answer to a valid submission: created with a data object; `members` also judges each documented member (P8-02 to P8-05). */
function judgeCreated(
  api: Api,
  verdicts: Verdicts,
  message: Pacs008Message,
  exchange: Exchange,
  rule: string,
  version?: string,
  members = true,
): void {
  verdicts.checkOrStop(
    rule,
    `a valid submission on pacs008 ${version ?? '(default version)'} is created (201)`,
    hasStatus(exchange, [201]),
  );
  const data = dataOf(exchange);
  // Each member of the data object is its own rule (P8-02 to P8-05): a renamed or wrong member fails only its rule.
  verdicts.check('P8-01', 'the answer is a data object (§2.3)', {
    ok: data !== undefined,
    expected: '{"data":{…}}',
    ...answered(exchange),
  });
  if (!members) return;
  const id = data?.paymentsServiceId;
  verdicts.check('P8-02', 'data.paymentsServiceId is a non-empty string', nonEmptyString(id));
  echoesMsgId(verdicts, api, exchange, paymentIds(message).msgId, { rule: 'P8-03' });
  verdicts.check('P8-04', 'data.status is PENDING on submission', equals(data?.status, 'PENDING'));
  verdicts.check('P8-05', 'data.creationDateTime is a date-time without zone', localDateTime(data?.creationDateTime));
}

test.describe('payment submission: valid message', () => {
  test('a valid pacs.008 gets 201 and the §2.3 data object', {
    tag: ['@P8-01', '@P8-02', '@P8-03', '@P8-04', '@P8-05', '@P8-32'],
  }, async ({ api, verdicts, seed }) => {
    await checkCreated(api, verdicts, seed, 'P8-01');
  });

  // Max35Text's most (ISO 20022: msgId, endToEndId and txId are 35 characters at most): the echo is
  // the whole msgId, not as much of it as a column holds.
  test('a valid pacs.008 whose ids are 35 characters long gets 201, its msgId echoed whole', {
    tag: ['@P8-01', '@P8-03'],
  }, async ({ api, verdicts, seed }) => {
    const message = buildPacs008({ seed });
    const ids = message.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.pmtId;
    const longest = (id: string) => `${id}-${'0'.repeat(35)}`.slice(0, 35);
    message.fitoFICstmrCdtTrf.grpHdr.msgId = longest(message.fitoFICstmrCdtTrf.grpHdr.msgId);
    ids.endToEndId = longest(ids.endToEndId);
    ids.txId = longest(ids.txId);
    const { exchange } = await submitPayment(api, message, { label: 'submit a payment whose ids are 35 characters' });
    verdicts.checkOrStop(
      'P8-01',
      'a valid submission with 35-character ids is created (201)',
      hasStatus(exchange, [201]),
    );
    echoesMsgId(verdicts, api, exchange, paymentIds(message).msgId, { rule: 'P8-03' });
  });

  // Within one test; the run's history (checks/history.ts) holds every id of the run to the same rule.
  test('two payments each get a paymentsServiceId of their own, which reads back as that payment', {
    tag: ['@P8-33'],
  }, async ({ api, verdicts, seed }) => {
    const messages = [buildPacs008({ seed: `${seed}-1` }), buildPacs008({ seed: `${seed}-2` })];
    const created = await Promise.all(messages.map((m, i) => submitPayment(api, m, { label: `payment ${i + 1}` })));
    for (const c of created) verdicts.require('P8-01', 'the payment is created', hasStatus(c.exchange, [201]));
    const ids = created.map((c) => requireId(api, verdicts, c.exchange));
    verdicts.check('P8-33', 'the two payments are given two ids', {
      ok: ids[0] !== ids[1],
      expected: 'two different paymentsServiceIds',
      received: ids.join(', '),
    });
    for (const [i, id] of ids.entries()) {
      const read = await readStatus(api, id, { label: `read payment ${i + 1} by its id` });
      verdicts.require('STS-01', 'its status is served', hasStatus(read.exchange, [200]));
      const original = firstStatusEntry(read.exchange.response.json)?.orgnlGrpInf as
        | { orgnlMsgId?: unknown }
        | undefined;
      verdicts.check(
        'P8-33',
        `the id of payment ${i + 1} reads back as payment ${i + 1} (orgnlMsgId)`,
        equals(original?.orgnlMsgId, paymentIds(messages[i]!).msgId),
      );
    }
  });

  // An id the service once gave stays that payment's, also once the payment is final and the client pays again.
  // The first payment is paid and followed to its final status in the background from the worker's start.
  test('a payment made after another is final gets an id of its own', {
    tag: ['@P8-33'],
    ...takes({ observation: paymentToFinalBeforeAnother }),
  }, async ({ api, verdicts, seed, observe }) => {
    const { submission: first } = await observe(paymentToFinalBeforeAnother);
    verdicts.require('P8-01', 'the first payment is created', hasStatus(first.exchange, [201]));
    const firstId = requireId(api, verdicts, first.exchange);
    const second = await submitPayment(api, buildPacs008({ seed: `${seed}-2` }), {
      label: 'second payment, once the first is final',
    });
    verdicts.require('P8-01', 'the second payment is created', hasStatus(second.exchange, [201]));
    verdicts.check('P8-33', 'the second payment is given an id of its own', {
      ok: requireId(api, verdicts, second.exchange) !== firstId,
      expected: `an id other than ${firstId}`,
      ...answered(second.exchange),
    });
  });

  // §4.2: "the same operation" under its other name, so its answer is §2.3's data object on every version.
  test('every pacs008 version the profile lists accepts a valid submission', {
    tag: ['@VER-01', '@P8-01', '@P8-02', '@P8-03', '@P8-04', '@P8-05'],
    ...takes({ observation: paymentOnEveryVersion }),
  }, async ({ api, verdicts, observe }) => {
    // Paid on every version side by side and followed to final from the worker's start, in the background.
    for (const { version, message, submission, final } of await observe(paymentOnEveryVersion)) {
      judgeCreated(api, verdicts, message, submission.exchange, 'VER-01', version);
      requireId(api, verdicts, submission.exchange);
      // Accepted is made: the id the answer gives reads back as the payment, whichever version made it,
      // and settles as a payment made on the default version does.
      const settled = resultOf(final!);
      const read = settled.last;
      verdicts.check(
        'VER-01',
        `the payment made on pacs008 ${version} is served by pacs002 (200)`,
        hasStatus(read, [200]),
      );
      verdicts.check('VER-01', `the payment made on pacs008 ${version} settles accepted`, endsIn(settled, 'accepted'));
      const original = firstStatusEntry(read.response.json)?.orgnlGrpInf as { orgnlMsgId?: unknown } | undefined;
      verdicts.check(
        'VER-01',
        `its status report names the msgId sent on pacs008 ${version}`,
        equals(original?.orgnlMsgId, paymentIds(message).msgId),
      );
    }
  });
});

test.describe('payment submission: optional parts', () => {
  for (const variant of paymentVariants.filter((v) => v.level === 'documented')) {
    test(`accepted ${variant.name}`, {
      tag: variant.rules.map((r) => `@${r}`),
      ...takes({ observation: paymentVariantToFinal.get(variant.name)! }),
    }, async ({ verdicts, observe }) => {
      // Paid and followed to its final status from the worker's start, in the background.
      const { submission, final } = await observe(paymentVariantToFinal.get(variant.name)!);
      for (const rule of variant.rules)
        verdicts.check(rule, `a submission ${variant.name} is created`, hasStatus(submission.exchange, [201]));
      // §7 reports a rejection in txSts, "not as an HTTP error": a 201 alone does not say the variant
      // was taken. It settles as any valid payment does (STS-08).
      if (submission.exchange.response.status === 201 && final)
        for (const rule of variant.rules)
          verdicts.check(rule, `a payment ${variant.name} settles accepted, not rejected`, endsIn(final, 'accepted'));
    });
  }

  // An assumption's title says what the test checks under any profile: the answer the profile expects.
  for (const variant of paymentVariants.filter((v) => v.level === 'assumption')) {
    test(`a submission ${variant.name} is accepted or refused, as the profile says`, {
      tag: [...variant.rules, 'ROB-03'].map((r) => `@${r}`),
    }, async ({ api, verdicts, seed }) => {
      const { exchange } = await submitPayment(api, variantMessage(variant, seed));
      verdicts.check('ROB-03', `a submission ${variant.name} gets an answer, never a 5xx`, neverServerError(exchange));
      const expected = variant.expected?.(api.profile.expectations) ?? 'either';
      if (expected === 'accept')
        for (const rule of variant.rules)
          verdicts.assume(rule, `a submission ${variant.name} is accepted`, hasStatus(exchange, [201]));
      if (expected === 'refuse')
        for (const rule of variant.rules)
          verdicts.assume(rule, `a submission ${variant.name} is refused`, refusedAnswer(exchange));
    });
  }

  test('a body sent as exact bytes is accepted like the serialised message', { tag: ['@P8-01'] }, async ({
    api,
    verdicts,
    seed,
  }) => {
    // Guards the RawBody path that the SCA and robustness catalogues rely on.
    const bytes = JSON.stringify(api.asSent('submitPayment', buildPacs008({ seed })));
    const { exchange } = await submitPayment(api, new RawBody(Buffer.from(bytes, 'utf8')));
    verdicts.check('P8-01', 'the same message sent as raw bytes is created', hasStatus(exchange, [201]));
  });
});
