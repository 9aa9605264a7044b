/**
 * §2.2 pacs.008 request, as documented: the field table plus the party-structure shapes. Used to
 * check the factory's own output (a generator that drifts from the spec would make every positive
 * test meaningless). Optional documented parts (uetr, pmtTpInf, rmtInf, the group total) are listed
 * so the schema's closed twin flags anything the factory invents.
 */
const text = { type: 'string', minLength: 1 } as const;
const max35 = { type: 'string', minLength: 1, maxLength: 35 } as const;
const gbp = {
  type: 'object',
  required: ['value', 'ccy'],
  properties: { value: { type: 'number', exclusiveMinimum: 0 }, ccy: { const: 'GBP' } },
} as const;
const party = {
  type: 'object',
  required: ['nm'],
  properties: {
    nm: text,
    pstlAdr: {
      type: 'object',
      required: ['adrLine'],
      properties: { adrLine: { type: 'array', items: { type: 'string' } } },
    },
  },
} as const;
/** §2.2's dbtrAcct / cdtrAcct shape (a refund's account details are the original's too). */
export const account = {
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'object',
      required: ['othr'],
      properties: { othr: { type: 'object', required: ['id'], properties: { id: text } } },
    },
    nm: { type: 'string' },
  },
} as const;
/** §2.2's dbtrAgt / cdtrAgt shape. */
export const agent = {
  type: 'object',
  required: ['finInstnId'],
  properties: {
    finInstnId: {
      type: 'object',
      required: ['clrSysMmbId'],
      properties: { clrSysMmbId: { type: 'object', required: ['mmbId'], properties: { mmbId: text } } },
    },
  },
} as const;
const prtry = { type: 'object', required: ['prtry'], properties: { prtry: { type: 'string' } } } as const;

export const pacs008RequestSchema = {
  $id: 'pacs008-request',
  type: 'object',
  required: ['fitoFICstmrCdtTrf'],
  maxProperties: 1,
  properties: {
    fitoFICstmrCdtTrf: {
      type: 'object',
      required: ['grpHdr', 'cdtTrfTxInf'],
      properties: {
        grpHdr: {
          type: 'object',
          required: ['msgId', 'creDtTm', 'nbOfTxs', 'sttlmInf'],
          properties: {
            msgId: max35,
            creDtTm: { type: 'string', format: 'date-time' },
            nbOfTxs: { const: '1' },
            ttlIntrBkSttlmAmt: gbp,
            sttlmInf: { type: 'object', required: ['sttlmMtd'], properties: { sttlmMtd: { const: 'CLRG' } } },
          },
        },
        cdtTrfTxInf: {
          type: 'array',
          minItems: 1,
          maxItems: 1,
          items: {
            type: 'object',
            required: [
              'pmtId',
              'intrBkSttlmAmt',
              'chrgBr',
              'dbtr',
              'dbtrAcct',
              'dbtrAgt',
              'cdtrAgt',
              'cdtr',
              'cdtrAcct',
            ],
            properties: {
              pmtId: {
                type: 'object',
                required: ['endToEndId', 'txId'],
                properties: { endToEndId: max35, txId: max35, uetr: { type: 'string', format: 'uuid' } },
              },
              pmtTpInf: {
                type: 'object',
                properties: {
                  svcLvl: {
                    type: 'array',
                    items: { type: 'object', required: ['prtry'], properties: { prtry: { const: 'FP' } } },
                  },
                  lclInstrm: prtry,
                  ctgyPurp: prtry,
                },
              },
              intrBkSttlmAmt: gbp,
              chrgBr: { enum: ['SLEV', 'SHAR'] },
              dbtr: party,
              dbtrAcct: account,
              dbtrAgt: agent,
              cdtrAgt: agent,
              cdtr: party,
              cdtrAcct: account,
              rmtInf: {
                type: 'object',
                properties: {
                  ustrd: { type: 'array', items: { type: 'string' } },
                  strd: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: {
                        cdtrRefInf: { type: 'object', required: ['ref'], properties: { ref: { type: 'string' } } },
                        addtlRmtInf: { type: 'array', items: { type: 'string' } },
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
