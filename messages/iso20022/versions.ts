/**
 * Which ISO 20022 message version a request or an answer of an operation is, by its path version
 * (spec §9): the spec names each message's version, and where it is silent that version's official
 * XSD (spec/iso20022/) is the contract. Pure; nothing here loads a schema.
 */
import type { OperationName } from '../../profile/profile';

/** The message definitions the project carries, ISO's own files unchanged (spec/iso20022/README.md). */
export const ISO_MESSAGES = [
  'pacs.008.001.08',
  'pacs.008.001.10',
  'pacs.002.001.10',
  'pacs.002.001.12',
  'camt.056.001.08',
  'camt.029.001.09',
  'pacs.004.001.09',
  'pacs.007.001.08',
] as const;

export type IsoMessage = (typeof ISO_MESSAGES)[number];

/** The message family each operation carries: the request's for a POST, the answer's for a GET. */
const FAMILY: Readonly<Record<OperationName, string>> = {
  submitPayment: 'pacs.008',
  incomingPayment: 'pacs.008',
  paymentStatus: 'pacs.002',
  cancel: 'camt.056',
  cancellationStatus: 'camt.029',
  returnPayment: 'pacs.004',
  refund: 'pacs.007',
};

/**
 * The ISO message an operation carries at a path version: `<family>.001.<NN>` for path version vNN
 * (§9: "pacs008 v10 and pacs002 v12 in the faster-payments request examples; pacs008 v08, pacs002
 * v10, camt056 v08, camt029 v09, pacs004 v08 and pacs007 v08 in the flow description"), except the
 * return: "The pacs.004 message documented is version 001.09 (root pmtRtr), posted to a path with v08".
 * Undefined for a version whose definition the project does not carry (a profile's own path version).
 */
export function isoMessageOf(op: OperationName, pathVersion: string): IsoMessage | undefined {
  const family = FAMILY[op];
  if (family === 'pacs.004') return 'pacs.004.001.09';
  const digits = /^v?(\d{1,2})$/i.exec(pathVersion.trim())?.[1];
  if (!digits) return undefined;
  const name = `${family}.001.${digits.padStart(2, '0')}`;
  return (ISO_MESSAGES as readonly string[]).includes(name) ? (name as IsoMessage) : undefined;
}
