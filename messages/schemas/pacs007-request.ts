/**
 * ASSUMPTION (RFD-07): pacs.007.001.08 refund request (root fIToFIPmtRvsl). The spec does not show
 * its fields (§4.4 names only "the refund amount and the customer's account details"); this is the
 * ISO 20022 shape of reference/README.md, amounts in GBP like the payment they refund, the account
 * details in orgnlTxRef.
 */
import { account, agent } from './pacs008-request';

const text = { type: 'string', minLength: 1 } as const;
const gbp = {
  type: 'object',
  required: ['value', 'ccy'],
  properties: { value: { type: 'number', exclusiveMinimum: 0 }, ccy: { const: 'GBP' } },
} as const;

const party = { type: 'object', properties: { pty: { type: 'object', properties: { nm: text } } } } as const;

export const pacs007RequestSchema = {
  $id: 'pacs007-request',
  type: 'object',
  required: ['fIToFIPmtRvsl'],
  properties: {
    fIToFIPmtRvsl: {
      type: 'object',
      required: ['grpHdr', 'txInf'],
      properties: {
        grpHdr: {
          type: 'object',
          required: ['msgId', 'creDtTm', 'nbOfTxs'],
          properties: {
            msgId: text,
            creDtTm: { type: 'string', format: 'date-time' },
            nbOfTxs: { enum: ['1', 1] },
            // ISO's GroupHeader71 requires it; the reference does not read it.
            sttlmInf: { type: 'object', properties: { sttlmMtd: text } },
          },
        },
        txInf: {
          type: 'array',
          minItems: 1,
          maxItems: 1,
          items: {
            type: 'object',
            required: [
              'rvslId',
              'orgnlGrpInf',
              'orgnlEndToEndId',
              'orgnlTxId',
              'orgnlIntrBkSttlmAmt',
              'rvsdIntrBkSttlmAmt',
              'rvslRsnInf',
            ],
            properties: {
              rvslId: text,
              orgnlGrpInf: {
                type: 'object',
                required: ['orgnlMsgId', 'orgnlMsgNmId'],
                properties: { orgnlMsgId: text, orgnlMsgNmId: { type: 'string', pattern: '^pacs\\.008' } },
              },
              orgnlEndToEndId: text,
              orgnlTxId: text,
              orgnlIntrBkSttlmAmt: gbp,
              rvsdIntrBkSttlmAmt: gbp,
              rvslRsnInf: {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  required: ['rsn'],
                  properties: { rsn: { type: 'object', minProperties: 1, properties: { cd: text, prtry: text } } },
                },
              },
              // The customer's account details (§4.4), as the original payment gave them (§2.2's shapes).
              orgnlTxRef: {
                type: 'object',
                properties: {
                  dbtr: party,
                  dbtrAcct: account,
                  dbtrAgt: agent,
                  cdtrAgt: agent,
                  cdtr: party,
                  cdtrAcct: account,
                },
              },
            },
          },
        },
      },
    },
  },
} as const;
