/**
 * §2.5 pacs.004.001.09 return request (root pmtRtr), as a JSON Schema: the documented rules that a
 * schema can express (required fields, EUR and positive amounts, nbOfTxs 1, chrgBr SLEV, the allowed
 * orgnlMsgNmId values, the 18 EBA codes, addtlInf only with FOCR, CLRG/SEPA, ISO 3166 alpha-2 ctry,
 * BIC and IBAN shape). IBAN check digits are not a schema matter: the factories' unit test checks
 * them with ibantools. The creditor name may sit at cdtr.nm (request example) or cdtr.pty.nm (table).
 */
import { ALLOWED_ORIGINAL_NAMES, EBA_RETURN_CODES } from '../pacs004';

const BIC = '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$';
const IBAN = '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$';

const text = { type: 'string', minLength: 1 } as const;
const date = { type: 'string', format: 'date' } as const;
const eurAmount = {
  type: 'object',
  required: ['value', 'ccy'],
  properties: { value: { type: 'number', exclusiveMinimum: 0 }, ccy: { const: 'EUR' } },
} as const;
const bicfi = {
  type: 'object',
  required: ['finInstnId'],
  properties: {
    finInstnId: { type: 'object', required: ['bicfi'], properties: { bicfi: { type: 'string', pattern: BIC } } },
  },
} as const;
const orgId = {
  type: 'object',
  required: ['orgId'],
  properties: {
    orgId: { type: 'object', required: ['anyBIC'], properties: { anyBIC: { type: 'string', pattern: BIC } } },
  },
} as const;
const codeOrProprietary = { type: 'object', minProperties: 1, properties: { cd: text, prtry: text } } as const;

const postalAddress = {
  type: 'object',
  properties: {
    ...Object.fromEntries(
      [
        'dept',
        'subDept',
        'strNme',
        'bldgNm',
        'bldgNb',
        'Flr',
        'pstBx',
        'room',
        'pstCd',
        'twnNm',
        'twnLctnNm',
        'dstrctNm',
        'ctrySubDvsn',
        'adrLine',
      ].map((k) => [k, { type: 'string' }]),
    ),
    ctry: { type: 'string', pattern: '^[A-Z]{2}$' },
  },
} as const;
const partyDetails = { type: 'object', properties: { nm: text, pstlAdr: postalAddress, id: orgId } } as const;
const optionalParty = { type: 'object', required: ['pty'], properties: { pty: partyDetails } } as const;

const reasonInfo = {
  type: 'object',
  required: ['orgtr', 'rsn'],
  properties: {
    orgtr: {
      type: 'object',
      required: ['nm', 'id'],
      properties: { nm: text, id: orgId },
    },
    rsn: {
      type: 'object',
      minProperties: 1,
      properties: { cd: { enum: [...EBA_RETURN_CODES] }, prtry: text },
    },
    addtlInf: text,
  },
  // §2.5: addtlInf allowed only when the reason is FOCR; then mandatory.
  if: {
    required: ['rsn'],
    properties: { rsn: { type: 'object', required: ['cd'], properties: { cd: { const: 'FOCR' } } } },
  },
  // No type here: a subschema with type object and properties would be closed by the drift check.
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else
  then: { required: ['addtlInf'], properties: { addtlInf: text } },
  else: { not: { required: ['addtlInf'], properties: { addtlInf: text } } },
} as const;

export const pacs004RequestSchema = {
  $id: 'pacs004-request',
  type: 'object',
  required: ['pmtRtr'],
  properties: {
    pmtRtr: {
      type: 'object',
      required: ['grpHdr', 'txInf'],
      properties: {
        grpHdr: {
          type: 'object',
          required: ['msgId', 'creDtTm', 'nbOfTxs', 'intrBkSttlmDt', 'sttlmInf'],
          properties: {
            msgId: text,
            creDtTm: { type: 'string', format: 'date-time' },
            nbOfTxs: { enum: [1, '1'] },
            ttlRtrdIntrBkSttlmAmt: eurAmount,
            intrBkSttlmDt: date,
            sttlmInf: {
              type: 'object',
              required: ['sttlmMtd'],
              properties: { sttlmMtd: text, clrSys: { type: 'object', properties: { prtry: text } } },
            },
            instgAgt: bicfi,
            instdAgt: bicfi,
          },
        },
        txInf: {
          type: 'array',
          minItems: 1,
          maxItems: 1,
          items: {
            type: 'object',
            required: [
              'rtrId',
              'orgnlGrpInf',
              'orgnlEndToEndId',
              'orgnlTxId',
              'orgnlIntrBkSttlmAmt',
              'rtrdIntrBkSttlmAmt',
              'chrgBr',
              'rtrRsnInf',
              'orgnlTxRef',
            ],
            properties: {
              pmtId: { type: 'object', properties: { endToEndId: text } },
              rtrId: text,
              orgnlGrpInf: {
                type: 'object',
                required: ['orgnlMsgId', 'orgnlMsgNmId'],
                properties: { orgnlMsgId: text, orgnlMsgNmId: { enum: [...ALLOWED_ORIGINAL_NAMES] } },
              },
              orgnlInstrId: text,
              orgnlEndToEndId: text,
              orgnlTxId: text,
              orgnlIntrBkSttlmAmt: eurAmount,
              rtrdIntrBkSttlmAmt: eurAmount,
              rtrdInstdAmt: eurAmount,
              intrBkSttlmDt: date,
              chrgBr: { const: 'SLEV' },
              chrgsInf: { type: 'object', required: ['amt'], properties: { amt: eurAmount } },
              rtrRsnInf: { type: 'array', minItems: 1, items: reasonInfo },
              orgnlTxRef: {
                type: 'object',
                required: ['dbtr', 'dbtrAcct', 'dbtrAgt', 'cdtrAgt', 'cdtr', 'cdtrAcct'],
                properties: {
                  intrBkSttlmDt: date,
                  sttlmInf: { type: 'object', properties: { sttlmMtd: { const: 'CLRG' } } },
                  pmtTpInf: {
                    type: 'object',
                    properties: {
                      svcLvl: { type: 'object', properties: { prtry: { const: 'SEPA' } } },
                      lclInstrm: codeOrProprietary,
                      ctgyPurp: codeOrProprietary,
                    },
                  },
                  rmtInf: {
                    type: 'object',
                    minProperties: 1,
                    properties: {
                      ustrd: { type: 'array', items: { type: 'string' } },
                      strd: { type: 'array', items: { type: 'object' } },
                    },
                  },
                  ultmtDbtr: optionalParty,
                  dbtr: {
                    type: 'object',
                    required: ['pty'],
                    properties: { pty: { ...partyDetails, required: ['nm'] } },
                  },
                  dbtrAcct: {
                    type: 'object',
                    required: ['id'],
                    properties: {
                      nm: text,
                      id: {
                        type: 'object',
                        required: ['iban'],
                        properties: { iban: { type: 'string', pattern: IBAN } },
                      },
                    },
                  },
                  dbtrAgt: bicfi,
                  cdtrAgt: bicfi,
                  cdtr: {
                    type: 'object',
                    properties: { nm: text, pty: partyDetails },
                    anyOf: [
                      { required: ['nm'], properties: { nm: text } },
                      { required: ['pty'], properties: { pty: { ...partyDetails, required: ['nm'] } } },
                    ],
                  },
                  cdtrAcct: {
                    type: 'object',
                    required: ['id'],
                    properties: {
                      id: {
                        type: 'object',
                        required: ['iban'],
                        properties: { iban: { type: 'string', pattern: IBAN } },
                      },
                    },
                  },
                  ultmtCdtr: optionalParty,
                  purp: text,
                },
              },
            },
          },
        },
      },
    },
  },
} as const;
