/**
 * ASSUMPTION (CXL-06): camt.056.001.08 request (root fitoFIPmtCxlReq). The spec does not show its
 * fields; this is the ISO 20022 shape of reference/README.md. The response is an assumption too:
 * 201 with a data object naming the cancellation's own paymentsServiceId.
 */
import { LOCAL_DATE_TIME } from './submission-response';

const text = { type: 'string', minLength: 1 } as const;
const agent = {
  type: 'object',
  properties: {
    agt: { type: 'object', properties: { finInstnId: { type: 'object', properties: { bicfi: text } } } },
  },
} as const;

export const camt056RequestSchema = {
  $id: 'camt056-request',
  type: 'object',
  required: ['fitoFIPmtCxlReq'],
  properties: {
    fitoFIPmtCxlReq: {
      type: 'object',
      required: ['assgnmt', 'undrlyg'],
      properties: {
        assgnmt: {
          type: 'object',
          required: ['id', 'creDtTm'],
          properties: {
            id: text,
            // ISO's CaseAssignment5 requires both; the reference does not read them.
            assgnr: agent,
            assgne: agent,
            creDtTm: { type: 'string', format: 'date-time' },
          },
        },
        undrlyg: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['txInf'],
            properties: {
              txInf: {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  required: ['cxlId', 'orgnlGrpInf', 'orgnlEndToEndId', 'orgnlTxId', 'cxlRsnInf'],
                  properties: {
                    cxlId: text,
                    orgnlGrpInf: {
                      type: 'object',
                      required: ['orgnlMsgId', 'orgnlMsgNmId'],
                      properties: { orgnlMsgId: text, orgnlMsgNmId: { type: 'string', pattern: '^pacs\\.008' } },
                    },
                    orgnlEndToEndId: text,
                    orgnlTxId: text,
                    orgnlIntrBkSttlmAmt: {
                      type: 'object',
                      required: ['value', 'ccy'],
                      properties: { value: { type: 'number', exclusiveMinimum: 0 }, ccy: { const: 'GBP' } },
                    },
                    cxlRsnInf: {
                      type: 'array',
                      minItems: 1,
                      items: {
                        type: 'object',
                        required: ['rsn'],
                        properties: {
                          rsn: { type: 'object', minProperties: 1, properties: { cd: text, prtry: text } },
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

export const cancellationResponseSchema = {
  $id: 'camt056-response',
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['paymentsServiceId', 'status', 'creationDateTime'],
      properties: {
        paymentsServiceId: text,
        cancellationId: text,
        status: { const: 'PENDING' },
        // §2.3's date-time without zone, as the payment's answer writes it.
        creationDateTime: { type: 'string', pattern: LOCAL_DATE_TIME },
      },
    },
  },
} as const;
