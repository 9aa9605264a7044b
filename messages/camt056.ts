/**
 * camt.056.001.08 cancellation requests (root fitoFIPmtCxlReq), built from a seed and the pacs.008
 * payment they cancel. The spec does not show the camt.056 fields (§2 last line), so the message is
 * the one its ISO 20022 version defines, valid under camt.056.001.08's XSD (spec/iso20022/): the
 * assignment names its assigner and assignee (CaseAssignment5 requires both), as agents by BIC, the
 * way the real deployment's published example does (toolchain.md), with the same root name.
 */
import { drawBic, newSeededFaker } from './seeded-faker';
import { uniqueId } from './ids';
import { isoDateTime, numericSeed, paymentAmount, paymentIds, type Amount, type Pacs008Message } from './pacs008';

/** ISO 20022 ExternalCancellationReason1Code values a payer's institution would send. */
export const CANCELLATION_REASONS = ['DUPL', 'TECH', 'FRAD', 'CUST', 'AM09', 'AC03'] as const;

/** A cancellation's reason (ISO CancellationReason33Choice): a code of the external list, or the assigner's own text. */
export type CancellationReason = { cd: string } | { prtry: string };

export interface CancellationTransaction {
  cxlId: string;
  orgnlGrpInf: { orgnlMsgId: string; orgnlMsgNmId: string };
  orgnlEndToEndId: string;
  orgnlTxId: string;
  orgnlIntrBkSttlmAmt: Amount;
  cxlRsnInf: Array<{ rsn: CancellationReason }>;
}

/** The canonical root; a profile may declare another (messages.cancellation, profile/message-shape.ts). */
export const CAMT056_ROOT = 'fitoFIPmtCxlReq';

/** A party of the case assignment (ISO Party40Choice), here the agent by its BIC. */
export interface CaseParty {
  agt: { finInstnId: { bicfi: string } };
}

export type Camt056Message = {
  fitoFIPmtCxlReq: {
    assgnmt: { id: string; assgnr: CaseParty; assgne: CaseParty; creDtTm: string };
    undrlyg: Array<{ txInf: CancellationTransaction[] }>;
  };
};

export interface Camt056Ids {
  /** assgnmt.id: the idempotency key of a cancellation (README; real deployment too). */
  assignmentId: string;
  cxlId: string;
}

export interface Camt056Options {
  seed: string;
  original: Pacs008Message;
  reason?: CancellationReason;
  ids?: Camt056Ids;
  now?: Date;
}

export function freshCancellationIds(): Camt056Ids {
  return { assignmentId: uniqueId('CXLASG'), cxlId: uniqueId('CXL') };
}

const faker = newSeededFaker();

export function buildCamt056Content(
  seed: string,
  original: Pacs008Message,
  ids: Camt056Ids,
  options: Omit<Camt056Options, 'seed' | 'original' | 'ids'> = {},
): Camt056Message {
  faker.seed(numericSeed(`camt056|${seed}`));
  const seededReason = faker.helpers.arrayElement(CANCELLATION_REASONS);
  // The payer's institution assigns the case to the service's (the scheme's) agent.
  const [assigner, assignee] = [drawBic(faker), drawBic(faker)];
  const orgnl = paymentIds(original);
  return {
    fitoFIPmtCxlReq: {
      assgnmt: {
        id: ids.assignmentId,
        assgnr: { agt: { finInstnId: { bicfi: assigner } } },
        assgne: { agt: { finInstnId: { bicfi: assignee } } },
        creDtTm: isoDateTime(options.now ?? new Date()),
      },
      undrlyg: [
        {
          txInf: [
            {
              cxlId: ids.cxlId,
              orgnlGrpInf: { orgnlMsgId: orgnl.msgId, orgnlMsgNmId: 'pacs.008.001.08' },
              orgnlEndToEndId: orgnl.endToEndId,
              orgnlTxId: orgnl.txId,
              orgnlIntrBkSttlmAmt: { ...paymentAmount(original) },
              cxlRsnInf: [{ rsn: options.reason ?? { cd: seededReason } }],
            },
          ],
        },
      ],
    },
  };
}

/**
 * The payer's institution's own reference of its recall, the cancellation's cxlId (ISO: "as assigned
 * by the assigner"): what a FOCR return's addtlInf holds (§2.5: "For an answer to a recall it holds
 * the specific reference of the bank that started the recall").
 */
export const recallReference = (message: Camt056Message): string => message.fitoFIPmtCxlReq.undrlyg[0]!.txInf[0]!.cxlId;

export function buildCamt056(options: Camt056Options): Camt056Message {
  const { seed, original, ids, ...rest } = options;
  return buildCamt056Content(seed, original, ids ?? freshCancellationIds(), rest);
}
