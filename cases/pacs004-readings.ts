/**
 * Where §2.5 spells a return otherwise than ISO 20022's pacs.004.001.09, the valid twin takes what
 * both accept (messages/pacs004.ts); each departure keeps a case of its own, asked as a reading of the
 * target: the twin, then the same message with the spec's own spelling. A row names the reading's
 * rule and the edits of its variant; the creditor name's other place depends on where the twin has it.
 */
import { ownValue, set, type Edit } from './field-rows';
import type { CreditorNamePlacement } from '../messages/pacs004';

const T = 'pmtRtr.txInf.0';
const O = `${T}.orgnlTxRef`;

export interface ReturnReadingCase {
  name: string;
  /** The reading: ISO-02 (§2.5's spellings), ISO-03 (the creditor name's place). */
  rule: 'ISO-02' | 'ISO-03';
  /** The variant's edits, by where the twin carries the creditor name. */
  edits: Readonly<Record<CreditorNamePlacement, readonly Edit[]>>;
}

const same = (edits: readonly Edit[]): ReturnReadingCase['edits'] => ({ party: edits, direct: edits });

export const returnReadingCases: readonly ReturnReadingCase[] = [
  {
    name: 'charges as §2.5 shows them: chrgsInf.amt without the agent ISO’s Charges7 requires',
    rule: 'ISO-02',
    edits: same([set(`${T}.chrgsInf`, { amt: { value: 1.5, ccy: 'EUR' } })]),
  },
  {
    name: 'the debtor’s street as §2.5 spells it: pstlAdr.strNme (ISO’s StrtNm)',
    rule: 'ISO-02',
    edits: same([set(`${O}.dbtr.pty.pstlAdr.strNme`, 'High Street')]),
  },
  {
    name: 'the purpose as §2.5 types it: orgnlTxRef.purp a string (ISO’s is a Cd or Prtry choice)',
    rule: 'ISO-02',
    edits: same([set(`${O}.purp`, 'GDDS')]),
  },
  {
    name: 'txInf.pmtId.endToEndId, shown in §2.5’s request example (pacs.004.001.09 has no PmtId)',
    rule: 'ISO-02',
    edits: same([set(`${T}.pmtId`, {}), set(`${T}.pmtId.endToEndId`, ownValue(`${T}.orgnlEndToEndId`))]),
  },
  {
    name: 'the creditor name at the place the twin does not use (cdtr.nm of §2.5’s example, or cdtr.pty.nm of its table)',
    rule: 'ISO-03',
    edits: {
      party: [set(`${O}.cdtr`, {}), set(`${O}.cdtr.nm`, ownValue(`${O}.cdtr.pty.nm`))],
      direct: [set(`${O}.cdtr`, { pty: {} }), set(`${O}.cdtr.pty.nm`, ownValue(`${O}.cdtr.nm`))],
    },
  },
];
