/**
 * pacs.007.001.08 refunds (root fIToFIPmtRvsl), built from a seed and the pacs.008 payment they
 * refund. The spec does not show the pacs.007 fields (§2 last line, §4.4 only says "with the refund
 * amount and the customer's account details": the original's parties, accounts and agents, in
 * orgnlTxRef), so the message is the one its ISO 20022 version defines, valid under pacs.007.001.08's XSD (spec/iso20022/): the group header carries its settlement
 * method (GroupHeader71 requires SttlmInf; CLRG, as the payment's and the real deployment's,
 * toolchain.md), root name as in the real deployment. Amounts stay in GBP: a refund gives back part of
 * a GBP payment.
 */
import { newSeededFaker } from './seeded-faker';
import { uniqueId } from './ids';
import {
  isoDateTime,
  numericSeed,
  paymentAmount,
  paymentIds,
  paymentTransaction,
  type Amount,
  type Pacs008Message,
} from './pacs008';

/**
 * ISO 20022 reversal reasons (ExternalReversalReason1Code) a merchant-initiated refund would carry.
 * Not CUST or DUPL: those are cancellation reasons, which a server enforcing the reversal list refuses.
 */
export const REFUND_REASONS = ['AM05', 'MS02', 'MS03'] as const;

export interface ReversalTransaction {
  rvslId: string;
  orgnlGrpInf: { orgnlMsgId: string; orgnlMsgNmId: string };
  orgnlEndToEndId: string;
  orgnlTxId: string;
  orgnlIntrBkSttlmAmt: Amount;
  rvsdIntrBkSttlmAmt: Amount;
  rvslRsnInf: Array<{ rsn: { cd: string } }>;
  /** The customer's account details §4.4 names, as the original payment gave them (OriginalTransactionReference28). */
  orgnlTxRef: {
    dbtr: { pty: { nm: string } };
    dbtrAcct: { id: { othr: { id: string } }; nm?: string };
    dbtrAgt: { finInstnId: { clrSysMmbId: { mmbId: string } } };
    cdtrAgt: { finInstnId: { clrSysMmbId: { mmbId: string } } };
    cdtr: { pty: { nm: string } };
    cdtrAcct: { id: { othr: { id: string } }; nm?: string };
  };
}

/** The canonical root; a profile may declare another (messages.refund, profile/message-shape.ts). */
export const PACS007_ROOT = 'fIToFIPmtRvsl';

export type Pacs007Message = {
  fIToFIPmtRvsl: {
    grpHdr: { msgId: string; creDtTm: string; nbOfTxs: string; sttlmInf: { sttlmMtd: 'CLRG' } };
    txInf: ReversalTransaction[];
  };
};

export interface Pacs007Ids {
  msgId: string;
  rvslId: string;
}

export interface Pacs007Options {
  seed: string;
  original: Pacs008Message;
  /** Pounds to refund; defaults to a seeded part of the original, always less than all of it. */
  amount?: number;
  reason?: string;
  ids?: Pacs007Ids;
  now?: Date;
}

export function freshRefundIds(): Pacs007Ids {
  return { msgId: uniqueId('RFDMSG'), rvslId: uniqueId('RVSL') };
}

const faker = newSeededFaker();

const toPence = (pounds: number): number => Math.round(pounds * 100);

/** A seeded partial amount: between 1p and the original minus 1p (the original is at least 2p). */
export function partialAmount(originalValue: number, fraction: number): number {
  const total = toPence(originalValue);
  if (total < 2) throw new Error(`a partial refund needs an original of at least 0.02 (got ${originalValue})`);
  const part = Math.min(total - 1, Math.max(1, Math.round(total * fraction)));
  return part / 100;
}

export function buildPacs007Content(
  seed: string,
  original: Pacs008Message,
  ids: Pacs007Ids,
  options: Omit<Pacs007Options, 'seed' | 'original' | 'ids'> = {},
): Pacs007Message {
  faker.seed(numericSeed(`pacs007|${seed}`));
  const fraction = faker.number.float({ min: 0.1, max: 0.6, fractionDigits: 3 });
  const seededReason = faker.helpers.arrayElement(REFUND_REASONS);
  const orgnl = paymentIds(original);
  const originalAmount = paymentAmount(original);
  const tx = paymentTransaction(original);
  const value =
    options.amount !== undefined ? toPence(options.amount) / 100 : partialAmount(originalAmount.value, fraction);
  return {
    fIToFIPmtRvsl: {
      grpHdr: {
        msgId: ids.msgId,
        creDtTm: isoDateTime(options.now ?? new Date()),
        nbOfTxs: '1',
        sttlmInf: { sttlmMtd: 'CLRG' },
      },
      txInf: [
        {
          rvslId: ids.rvslId,
          orgnlGrpInf: { orgnlMsgId: orgnl.msgId, orgnlMsgNmId: 'pacs.008.001.08' },
          orgnlEndToEndId: orgnl.endToEndId,
          orgnlTxId: orgnl.txId,
          orgnlIntrBkSttlmAmt: { value: originalAmount.value, ccy: 'GBP' },
          rvsdIntrBkSttlmAmt: { value, ccy: 'GBP' },
          rvslRsnInf: [{ rsn: { cd: options.reason ?? seededReason } }],
          orgnlTxRef: {
            dbtr: { pty: { nm: tx.dbtr.nm } },
            dbtrAcct: {
              id: { othr: { id: tx.dbtrAcct.id.othr.id } },
              ...(tx.dbtrAcct.nm ? { nm: tx.dbtrAcct.nm } : {}),
            },
            dbtrAgt: structuredClone(tx.dbtrAgt),
            cdtrAgt: structuredClone(tx.cdtrAgt),
            cdtr: { pty: { nm: tx.cdtr.nm } },
            cdtrAcct: {
              id: { othr: { id: tx.cdtrAcct.id.othr.id } },
              ...(tx.cdtrAcct.nm ? { nm: tx.cdtrAcct.nm } : {}),
            },
          },
        },
      ],
    },
  };
}

export function buildPacs007(options: Pacs007Options): Pacs007Message {
  const { seed, original, ids, ...rest } = options;
  return buildPacs007Content(seed, original, ids ?? freshRefundIds(), rest);
}

export function refundAmount(m: Pacs007Message): Amount {
  const tx = m.fIToFIPmtRvsl.txInf[0];
  if (!tx) throw new Error('pacs.007 message without a transaction');
  return tx.rvsdIntrBkSttlmAmt;
}
