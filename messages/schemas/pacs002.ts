/**
 * §2.4 pacs.002 status report, root fitoFIPmtStsRpt. Date-times and dates are ISO 20022's (the spec
 * says "date-time" without a profile): a zone or not (iso-dates.ts). addtlInf entries may be null
 * (documented).
 */
import { ISO_DATE as DATE, SPEC_DATE_TIME as DATE_TIME } from './iso-dates';

const text = { type: 'string', minLength: 1 } as const;
const dateTime = { type: 'string', pattern: DATE_TIME } as const;

export const pacs002Schema = {
  $id: 'pacs002-response',
  type: 'object',
  required: ['fitoFIPmtStsRpt'],
  properties: {
    fitoFIPmtStsRpt: {
      type: 'object',
      required: ['grpHdr', 'txInfAndSts'],
      properties: {
        grpHdr: { type: 'object', required: ['msgId', 'creDtTm'], properties: { msgId: text, creDtTm: dateTime } },
        txInfAndSts: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['orgnlGrpInf', 'orgnlEndToEndId', 'orgnlTxId', 'txSts'],
            properties: {
              orgnlGrpInf: {
                type: 'object',
                required: ['orgnlMsgId', 'orgnlMsgNmId'],
                properties: { orgnlMsgId: text, orgnlMsgNmId: text },
              },
              orgnlEndToEndId: text,
              orgnlTxId: text,
              txSts: { type: 'string', pattern: '^[A-Z]{4}$' },
              stsRsnInf: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    rsn: { type: 'object', required: ['cd'], properties: { cd: text } },
                    addtlInf: { type: 'array', items: { type: ['string', 'null'] } },
                  },
                },
              },
              accptncDtTm: dateTime,
              orgnlTxRef: {
                type: 'object',
                properties: {
                  intrBkSttlmDt: { type: 'string', pattern: DATE },
                  sttlmInf: {
                    type: 'object',
                    properties: {
                      sttlmMtd: { type: 'string' },
                      clrSys: { type: 'object', properties: { prtry: { type: 'string' } } },
                    },
                  },
                  pmtTpInf: {
                    type: 'object',
                    properties: {
                      svcLvl: { type: 'array', items: { type: 'object', properties: { prtry: { type: 'string' } } } },
                    },
                  },
                  rmtInf: {
                    type: 'object',
                    properties: {
                      strd: {
                        type: 'array',
                        items: {
                          type: 'object',
                          properties: { addtlRmtInf: { type: 'array', items: { type: 'string' } } },
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
    },
  },
} as const;

/**
 * §2.4's report of a return or a refund (§4.3: the operation "serves the status of payments, returns
 * and refunds"): the same message held to its fields' types, with only a status required. Its echoes
 * name "the original request", and a pacs.004 carries no txId and no required endToEndId: which of
 * them such a report echoes is not shown.
 */
export const returnOrRefundReportSchema = (() => {
  const schema = JSON.parse(JSON.stringify(pacs002Schema)) as Record<string, unknown>;
  const dropRequired = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    delete (node as { required?: unknown }).required;
    for (const value of Object.values(node)) dropRequired(value);
  };
  dropRequired(schema);
  const report = (schema.properties as Record<string, Record<string, unknown>>).fitoFIPmtStsRpt!;
  const entries = (report.properties as Record<string, Record<string, unknown>>).txInfAndSts!;
  schema.$id = 'pacs002-response-of-a-return-or-refund';
  schema.required = ['fitoFIPmtStsRpt'];
  report.required = ['txInfAndSts'];
  (entries.items as Record<string, unknown>).required = ['txSts'];
  return schema as { $id: string };
})();
