/**
 * ASSUMPTION (CXL-06): camt.029.001.09 resolution of investigation (root rsltnOfInvstgtn), the
 * answer of GET camt029/{paymentsServiceId} (§1 rule 5). The spec does not show its fields; this is
 * the ISO 20022 shape of reference/README.md: sts.conf CNCL (cancelled) or RJCR (rejected), the
 * per-transaction txCxlSts, and a reason on a rejection. The codes CNCL/RJCR are an assumption too.
 */
const text = { type: 'string', minLength: 1 } as const;
const outcome = { enum: ['CNCL', 'RJCR', 'PDCR'] } as const;

export const camt029Schema = {
  $id: 'camt029-response',
  type: 'object',
  required: ['rsltnOfInvstgtn'],
  properties: {
    rsltnOfInvstgtn: {
      type: 'object',
      required: ['assgnmt', 'sts', 'cxlDtls'],
      properties: {
        assgnmt: { type: 'object', required: ['id', 'creDtTm'], properties: { id: text, creDtTm: { type: 'string', format: 'date-time' } } },
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
                    orgnlGrpInf: { type: 'object', required: ['orgnlMsgId'], properties: { orgnlMsgId: text, orgnlMsgNmId: text } },
                    orgnlEndToEndId: text,
                    orgnlTxId: text,
                    txCxlSts: outcome,
                    cxlStsRsnInf: {
                      type: 'array',
                      items: { type: 'object', required: ['rsn'], properties: { rsn: { type: 'object', minProperties: 1, properties: { cd: text, prtry: text } } } },
                    },
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
  rsltnOfInvstgtn?: {
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
  };
}
