/**
 * ASSUMPTION (CXL-06): camt.029.001.09 resolution of investigation, the answer of GET
 * camt029/{paymentsServiceId} (§1 rule 5). The spec does not show its fields; this describes the
 * content under its root (the root name is the profile's messages.resolution.root), in the canonical
 * ISO 20022 member names: sts.conf, the per-transaction txCxlSts and a reason on a rejection. The
 * confirmation codes are the profile's too (messages.resolution.confirmed / rejected).
 */
import { ISO_DATE_TIME } from './iso-dates';

const text = { type: 'string', minLength: 1 } as const;
// The codes are the profile's (messages.resolution.confirmed / rejected), checked beside the schema.
const outcome = text;

/**
 * CancellationIndividualStatus1Code, a transaction's txCxlSts: its cancellation accepted (ACCR),
 * rejected (RJCR) or pending (PDCR). ISO's own list, beside the profile's sts.conf codes.
 */
export const TX_CANCELLATION_STATUS = { confirmed: 'ACCR', rejected: 'RJCR', pending: 'PDCR' } as const;

export const camt029Schema = {
  $id: 'camt029-response',
  type: 'object',
  required: ['assgnmt', 'sts', 'cxlDtls'],
  properties: {
    assgnmt: {
      type: 'object',
      required: ['id', 'creDtTm'],
      // ISODateTime: the zone is optional, as in every ISO 20022 date-time.
      properties: { id: text, creDtTm: { type: 'string', pattern: ISO_DATE_TIME } },
    },
    sts: { type: 'object', required: ['conf'], properties: { conf: outcome } },
    cxlDtls: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['txInfAndSts'],
        properties: {
          txInfAndSts: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['orgnlGrpInf', 'orgnlEndToEndId', 'orgnlTxId', 'txCxlSts'],
              properties: {
                cxlStsId: text,
                orgnlGrpInf: {
                  type: 'object',
                  required: ['orgnlMsgId'],
                  properties: { orgnlMsgId: text, orgnlMsgNmId: text },
                },
                orgnlEndToEndId: text,
                orgnlTxId: text,
                txCxlSts: outcome,
                cxlStsRsnInf: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['rsn'],
                    properties: { rsn: { type: 'object', minProperties: 1, properties: { cd: text, prtry: text } } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

/** The camt.029 fields the cancellation tests read, typed loosely: the schema check comes first. */
export interface Camt029 {
  assgnmt?: { id?: string };
  sts?: { conf?: string };
  cxlDtls?: Array<{
    txInfAndSts?: Array<{
      orgnlGrpInf?: { orgnlMsgId?: string };
      orgnlTxId?: string;
      txCxlSts?: string;
      cxlStsRsnInf?: Array<{ rsn?: { cd?: string; prtry?: string } }>;
    }>;
  }>;
}
