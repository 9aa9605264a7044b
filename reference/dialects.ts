/**
 * Dialects: the service's choices where the spec says "not shown". Each field is one choice; the
 * suite's environment profiles describe the same choices for remote targets.
 *
 * The process has one dialect (REF_DIALECT); a client registered with its own `dialect` is answered
 * in that one instead (README "Dialects").
 */

/** HTTP status per refusal class of the payments API (the token endpoint answers per RFC 6749 in every dialect). */
export interface RefusalStatus {
  /** Schema validation of a parsed message (required field, type, value, format). */
  validation: 400 | 422;
  /** A body that is not a parseable JSON object (empty, bad UTF-8, bad JSON, ...). */
  malformed: 400 | 422;
  /** Missing, malformed, unknown or expired bearer token. */
  unauthenticated: 401;
  /** X-Client-Id does not name the client the access token was issued to. */
  forbidden: 403 | 401 | 404;
  /** An sca-token that is present but fails a check (a missing one is missingHeader). */
  sca: 401 | 403 | 400;
  /** Unknown id, another client's resource, unknown path. */
  notFound: 404;
  /** Business rules of returns and refunds, when businessRejection is http. */
  business: 400 | 409 | 422;
  /** A payments POST whose Content-Type is not application/json. */
  mediaType: 415 | 400;
  /** A body over REF_MAX_BODY_BYTES. */
  tooLarge: 413 | 400;
  /** A required header is missing (X-Client-Id, sca-token). */
  missingHeader: 400 | 401;
  /** An Accept header that does not allow application/json. */
  notAcceptable: 406 | 400;
  /** An idempotency key reused for a different body, when idempotencyConflict is reject. */
  conflict: 400 | 409 | 422;
}

export type RefusalClass = keyof RefusalStatus;

/** How a POST the sca-token may not be asked of reads it: required (and checked), not (nor checked), or checked when sent. */
export type ScaReading = 'required' | 'notRequired' | 'verifiedWhenPresent';

/**
 * One cause within a refusal class answered otherwise than the rest of its class, as conforming
 * servers do (400 for an hd mismatch, 401 for every other SCA failure: the spec shows no error
 * status, so both are fine). `class`: the cause gets its class's status.
 */
export interface CauseStatus {
  /** An sca-token whose hd is not the SHA-256 of the body (SCA-09), of class sca. */
  scaHd: 'class' | 400 | 401 | 403;
  /**
   * A camt.056 cancelling a payment the caller does not have (never made, or another client's), of
   * class notFound: 422 reads it as a business refusal instead (§1 rule 1 says it is refused, not how);
   * camt029 accepts it and rejects it in its camt.029 (RJCR), the flow table's "camt.029.001.09 for a
   * rejection", as a service that forwards every cancellation to the scheme's (§1 rules 2 and 4).
   */
  cancelUnknown: 'class' | 422 | 'camt029';
  /**
   * A business refusal of a request that conflicts with the state of what it acts on (a second return,
   * a return before settlement or after a refund, refunds past what remains), of class business: 409
   * Conflict, as web frameworks answer a conflict with a resource's state, where the class keeps its own.
   */
  businessState: 'class' | 409;
}

export type RefusalCause = keyof CauseStatus;

export interface Dialect {
  name: string;
  refusalStatus: RefusalStatus;
  /** errors: {"errors":[{code,message,path}]}; problem: RFC 9457 application/problem+json; message: one {"code","message"}. */
  errorBody: 'errors' | 'problem' | 'message';
  interimStatus: 'PEND' | 'PDNG' | 'ACSP' | 'ACTC';
  acceptedStatus: 'ACCC' | 'ACSC';
  rejectStatus: 'RJCT' | 'RJTC';
  expiresInType: 'number' | 'string';
  accessTokenFormat: 'jwt' | 'opaque';
  paymentsServiceIdFormat: 'uuid' | 'prefixed';
  /** A return whose original payment the service does not know. */
  returnUnknownOriginal: 'accept' | 'refuse';
  /**
   * A payment to the payer's own sort code (its memberId as creditor agent: an on-us payment), which
   * the spec neither makes nor denies an incoming payment. incoming: the payer is also its beneficiary
   * (reads it as incoming, returns and refunds it); notIncoming: it is no incoming payment of anyone's
   * (the incoming read answers 404, a return or refund by the payer is refused as not the beneficiary's).
   */
  onUs: 'incoming' | 'notIncoming';
  /** http: refused at submission with refusalStatus.business; status: 201, then rejected in pacs.002. */
  businessRejection: 'http' | 'status';
  /** Same idempotency key, different body. original: 200 with the original; reject: refusalStatus.conflict. */
  idempotencyConflict: 'original' | 'reject';
  /** A reused jti of an authentication JWT. */
  assertionReplay: 'refuse' | 'allow';
  /** A reused jti of an SCA JWT (a new token with a new nonce): §5 calls it a "unique token ID" and names no result. */
  scaJtiReplay: 'refuse' | 'allow';
  /** The payer's read of its own payment through the incoming endpoint, the beneficiary's view (the spec does not say the payer is refused it). */
  payerIncomingRead: 'refuse' | 'allow';
  /** A new return (another msgId) reusing an rtrId of the caller's earlier returns: §2.5 says it "must uniquely identify each request" and names no result. */
  rtrIdReuse: 'refuse' | 'allow';
  /** A reused nonce of an SCA JWT (a new token over another message): §5 calls it a "unique message ID, freely defined" and names no result. */
  scaNonceReplay: 'refuse' | 'allow';
  /** Root element of the camt.056 requests accepted (the other spelling is refused like a missing root). */
  cancellationRequestRoot: 'fitoFIPmtCxlReq' | 'FIToFIPmtCxlReq';
  /** Root element of the camt.029 served. */
  resolutionRoot: 'rsltnOfInvstgtn' | 'RsltnOfInvstgtn';
  /** Root element of the pacs.007 requests accepted. */
  refundRoot: 'fIToFIPmtRvsl' | 'fitoFIPmtRvsl';
  /** A pacs.007 under a root nobody declared: refused like a body without the root, or read as the message (the spec does not name the root). */
  refundUnknownRoot: 'refuse' | 'allow';
  /** Body of an idempotent 200 repeat: the original data object, nothing, or {"data":{"paymentsServiceId"}}. */
  repeatBody: 'original' | 'empty' | 'id-only';
  /** Input the spec has no rule about (nesting over 64, __proto__ keys): refused as malformed, or accepted and ignored. */
  extraInput: 'refuse' | 'accept';
  /**
   * Invalid UTF-8 in a body: malformed, or decoded with U+FFFD replacement; detect: the encoding told by
   * the body's first bytes (RFC 4627 §3: UTF-8, UTF-16 or UTF-32, with or without a BOM), as Python's
   * json.loads reads bytes, invalid UTF-8 still malformed.
   */
  utf8: 'strict' | 'lenient' | 'detect';
  /** The data member echoing grpHdr.msgId: §2.3's example writes paymentId, its field table paymentsId. */
  msgIdEchoName: 'paymentId' | 'paymentsId';
  /**
   * §5.5 asks the sca-token of "every request that submits a payment": required on camt.056 too, not
   * (neither required nor checked), or verified when present (not required, checked when sent).
   */
  scaOnCancellation: ScaReading;
  /**
   * The same for pacs.007: §1 names the refund apart from the payment and §4.4 does not show its
   * headers, so a refund may be read as no request that submits a payment.
   */
  scaOnRefund: ScaReading;
  /** Root element of the pacs.008 an incoming read serves: the submission's, or the ISO 20022 XML name. */
  incomingRoot: 'fitoFICstmrCdtTrf' | 'FIToFICstmrCdtTrf';
  /**
   * The answer to an accepted pacs.004 (not shown): the §2.3 data object, only
   * {"data":{"paymentsServiceId"}}, or no body at all, the return named by its Location header alone.
   */
  returnAnswer: 'data' | 'id-only' | 'empty';
  /**
   * The answer to an accepted camt.056 (not shown): a data object like §2.3's (status PENDING), only
   * {"data":{"paymentsServiceId"}}, or a data object whose status says RECEIVED (§2.3's PENDING is the payment's).
   */
  cancelAnswer: 'data' | 'id-only' | 'received';
  /**
   * Where the answers §4.4 does not show (POST camt056, pacs004, pacs007, accepted or repeated) carry
   * their members: in a data object as §2.3's payment answer does, or at the body's top level.
   */
  answerEnvelope: 'data' | 'none';
  /**
   * An amount with more decimals than its currency's minor units (ISO 4217): refused, or accepted and
   * booked rounded to cents. The spec only types amounts as numbers, so both conform (MNY-04).
   */
  amountPrecision: 'refuse' | 'accept';
  /** An amount beyond this service's bound (15 significant digits, inside ISO 20022's 18): refused, or accepted (MNY-05). */
  amountDigits: 'refuse' | 'accept';
  /**
   * The status of an accepted camt.056, pacs.004 and pacs.007, which §4.4 does not give (§7's 201 is the
   * payment's): 201 Created, or 202 Accepted with a Location header naming the new resource's status
   * (camt029/{id} for a cancellation, pacs002/{id} for a return or a refund).
   */
  acceptanceStatus: 201 | 202;
  /**
   * A code shown between the interim one and the accepted one, for REF_SETTLING_MS from the first
   * status read that finds the transfer settled:
   * ISO's ACSC (settlement completed on the debtor's side), before the accepted code (the creditor's).
   * §3 documents ACCC as final, not ACSC: a target may pass through it.
   */
  settlingStatus: 'none' | 'ACSC';
  /**
   * A code shown after the accepted one, from REF_SETTLING_MS after the first read that finds the
   * transfer settled: ISO's ACSC after §3's ACCC, another final code of the same class (§3 says
   * "Transitions: not shown"). Only where the accepted code is ACCC and ACSC is no settling code.
   */
  laterAcceptedStatus: 'none' | 'ACSC';
  /**
   * How a date-time without zone (§2.3's creationDateTime) is written: to the second, or to the
   * minute, as Java's LocalDateTime.toString() writes a time whose seconds are zero (ISO 8601 lets
   * them go; the spec names no narrower form).
   */
  localTimeForm: 'seconds' | 'minutes';
  /**
   * A hub that validates every submitted message against its ISO 20022 version's XSD before it reads
   * a field (xsd), refusing with libxml2's own words (the element it expected, in ISO's spelling), or
   * one that reads the spec's tables (none).
   */
  isoValidation: 'none' | 'xsd';
  /**
   * Where a pacs.004 must carry the creditor name: §2.5's table (cdtr.pty.nm, ISO's only place), its
   * request example (cdtr.nm), or either.
   */
  returnCreditorName: 'either' | 'party' | 'direct';
  /**
   * A pacs.008 debtor's or creditor's nm: required (the reference's first reading of §2.2's shape
   * table), or optional as ISO 20022 has it (the table gives its type, not its presence).
   */
  partyName: 'required' | 'optional';
  /**
   * A FOCR return ("Following cancellation request") of a payment the service knows: taken as is
   * (any), or only as the answer to a cancellation request on record for that payment, whose cxlId
   * its addtlInf holds (onRecord: §2.5 "For an answer to a recall it holds the specific reference of
   * the bank that started the recall").
   */
  focrRecall: 'any' | 'onRecord';
  /**
   * orgnlMsgNmId "pacs.008" with no variant and version: §2.5's cell says "a variant and version
   * number are optional" and "only pacs.008.001.08 or pacs.008.001.02 is allowed"; §9 names the two.
   */
  bareOriginalName: 'accept' | 'refuse';
  /**
   * Whose sort code the debtor agent may be: any, or only the payer's own (§1: a main payment is
   * "Started by | payer's institution"), a payment naming another institution refused as a business
   * refusal, for a payer that registered a sort code.
   */
  debtorAgent: 'any' | 'caller';
  /** Causes answered otherwise than their refusal class. */
  causeStatus: CauseStatus;
  /**
   * The OAuth error code of a token request missing grant_type, scope or assertion. RFC 6749 §5.2 has
   * two readings: generic, invalid_request ("missing a required parameter"); specific, the code of
   * the parameter (unsupported_grant_type, invalid_scope, invalid_grant). Off the dialect matrix.
   */
  tokenErrorCodes: 'generic' | 'specific';
}

export const defaultRefusalStatus: RefusalStatus = {
  validation: 400,
  malformed: 400,
  unauthenticated: 401,
  forbidden: 403,
  sca: 401,
  notFound: 404,
  business: 400,
  mediaType: 415,
  tooLarge: 413,
  missingHeader: 400,
  notAcceptable: 406,
  conflict: 400,
};

export const defaultDialect: Dialect = {
  name: 'default',
  refusalStatus: defaultRefusalStatus,
  errorBody: 'errors',
  interimStatus: 'PEND',
  acceptedStatus: 'ACCC',
  rejectStatus: 'RJCT',
  expiresInType: 'number',
  accessTokenFormat: 'jwt',
  paymentsServiceIdFormat: 'uuid',
  returnUnknownOriginal: 'accept',
  onUs: 'incoming',
  businessRejection: 'http',
  idempotencyConflict: 'original',
  assertionReplay: 'refuse',
  scaJtiReplay: 'refuse',
  scaNonceReplay: 'refuse',
  rtrIdReuse: 'refuse',
  payerIncomingRead: 'refuse',
  cancellationRequestRoot: 'fitoFIPmtCxlReq',
  resolutionRoot: 'rsltnOfInvstgtn',
  refundRoot: 'fIToFIPmtRvsl',
  refundUnknownRoot: 'refuse',
  repeatBody: 'original',
  extraInput: 'refuse',
  utf8: 'strict',
  msgIdEchoName: 'paymentId',
  scaOnCancellation: 'required',
  scaOnRefund: 'required',
  incomingRoot: 'fitoFICstmrCdtTrf',
  returnAnswer: 'data',
  cancelAnswer: 'data',
  answerEnvelope: 'data',
  amountPrecision: 'refuse',
  amountDigits: 'refuse',
  acceptanceStatus: 201,
  settlingStatus: 'none',
  laterAcceptedStatus: 'none',
  localTimeForm: 'seconds',
  isoValidation: 'none',
  returnCreditorName: 'either',
  partyName: 'required',
  focrRecall: 'any',
  bareOriginalName: 'accept',
  debtorAgent: 'any',
  causeStatus: { scaHd: 'class', cancelUnknown: 'class', businessState: 'class' },
  tokenErrorCodes: 'generic',
};

export const dialects: Readonly<Record<string, Dialect>> = {
  default: defaultDialect,
  'strict-422': {
    ...defaultDialect,
    name: 'strict-422',
    refusalStatus: { ...defaultRefusalStatus, validation: 422, business: 422, conflict: 422, sca: 403 },
    errorBody: 'problem',
    interimStatus: 'PDNG',
    rejectStatus: 'RJTC',
    expiresInType: 'string',
    accessTokenFormat: 'opaque',
    paymentsServiceIdFormat: 'prefixed',
  },
  lenient: {
    ...defaultDialect,
    name: 'lenient',
    returnUnknownOriginal: 'refuse',
    interimStatus: 'ACSP',
    acceptedStatus: 'ACSC',
    businessRejection: 'status',
    assertionReplay: 'allow',
    scaJtiReplay: 'allow',
    scaNonceReplay: 'allow',
  },
  // A target that accepts the flows it does not show with 202 and a Location header.
  'accepts-202': { ...defaultDialect, name: 'accepts-202', acceptanceStatus: 202 },
  // A target whose payments pass ACSP, then ACSC, then ACCC, each for a while.
  'settles-via-acsc': { ...defaultDialect, name: 'settles-via-acsc', interimStatus: 'ACSP', settlingStatus: 'ACSC' },
  // A hub that maps each request to ISO 20022 XML and validates it against the XSD first, refusing 422
  // with libxml2's words, and answers business refusals 409, as a framework's defaults would.
  'iso-strict': {
    ...defaultDialect,
    name: 'iso-strict',
    isoValidation: 'xsd',
    returnCreditorName: 'party',
    partyName: 'optional',
    focrRecall: 'onRecord',
    bareOriginalName: 'refuse',
    debtorAgent: 'caller',
    refusalStatus: { ...defaultRefusalStatus, validation: 422, business: 409 },
  },
};

type Choice = string | number;
type TopField = Exclude<keyof Dialect, 'name' | 'refusalStatus' | 'causeStatus' | 'tokenErrorCodes'>;

const topChoices: { [K in TopField]: readonly Dialect[K][] } = {
  errorBody: ['errors', 'problem', 'message'],
  interimStatus: ['PEND', 'PDNG', 'ACSP', 'ACTC'],
  acceptedStatus: ['ACCC', 'ACSC'],
  rejectStatus: ['RJCT', 'RJTC'],
  expiresInType: ['number', 'string'],
  accessTokenFormat: ['jwt', 'opaque'],
  paymentsServiceIdFormat: ['uuid', 'prefixed'],
  returnUnknownOriginal: ['accept', 'refuse'],
  onUs: ['incoming', 'notIncoming'],
  businessRejection: ['http', 'status'],
  idempotencyConflict: ['original', 'reject'],
  assertionReplay: ['refuse', 'allow'],
  scaJtiReplay: ['refuse', 'allow'],
  scaNonceReplay: ['refuse', 'allow'],
  rtrIdReuse: ['refuse', 'allow'],
  payerIncomingRead: ['refuse', 'allow'],
  cancellationRequestRoot: ['fitoFIPmtCxlReq', 'FIToFIPmtCxlReq'],
  resolutionRoot: ['rsltnOfInvstgtn', 'RsltnOfInvstgtn'],
  refundRoot: ['fIToFIPmtRvsl', 'fitoFIPmtRvsl'],
  refundUnknownRoot: ['refuse', 'allow'],
  repeatBody: ['original', 'empty', 'id-only'],
  extraInput: ['refuse', 'accept'],
  utf8: ['strict', 'lenient', 'detect'],
  msgIdEchoName: ['paymentId', 'paymentsId'],
  scaOnCancellation: ['required', 'notRequired', 'verifiedWhenPresent'],
  scaOnRefund: ['required', 'notRequired', 'verifiedWhenPresent'],
  incomingRoot: ['fitoFICstmrCdtTrf', 'FIToFICstmrCdtTrf'],
  returnAnswer: ['data', 'id-only', 'empty'],
  cancelAnswer: ['data', 'id-only', 'received'],
  answerEnvelope: ['data', 'none'],
  amountPrecision: ['refuse', 'accept'],
  amountDigits: ['refuse', 'accept'],
  acceptanceStatus: [201, 202],
  settlingStatus: ['none', 'ACSC'],
  laterAcceptedStatus: ['none', 'ACSC'],
  localTimeForm: ['seconds', 'minutes'],
  isoValidation: ['none', 'xsd'],
  returnCreditorName: ['either', 'party', 'direct'],
  partyName: ['required', 'optional'],
  focrRecall: ['any', 'onRecord'],
  bareOriginalName: ['accept', 'refuse'],
  debtorAgent: ['any', 'caller'],
};

const refusalChoices: { [K in RefusalClass]: readonly RefusalStatus[K][] } = {
  validation: [400, 422],
  malformed: [400, 422],
  unauthenticated: [401],
  forbidden: [403, 401, 404],
  sca: [401, 403, 400],
  notFound: [404],
  business: [400, 409, 422],
  mediaType: [415, 400],
  tooLarge: [413, 400],
  missingHeader: [400, 401],
  notAcceptable: [406, 400],
  conflict: [400, 409, 422],
};

export interface DialectChoice {
  /** Field name; a refusal class is `refusalStatus.<class>` (accepted in that dotted form too). */
  field: string;
  /** Allowed values, the default first. */
  values: readonly Choice[];
  default: Choice;
}

/**
 * Every dialect field with its allowed values (default first), machine-readable: the suite builds
 * covering sets of dialects from it (also served as `dialectChoices` by GET /_admin/info).
 */
export const dialectChoices: readonly DialectChoice[] = [
  ...(Object.keys(refusalChoices) as RefusalClass[]).map((k) => ({
    field: `refusalStatus.${k}`,
    values: refusalChoices[k],
    default: defaultRefusalStatus[k],
  })),
  ...(Object.keys(topChoices) as TopField[]).map((k) => ({
    field: k,
    values: topChoices[k] as readonly Choice[],
    default: defaultDialect[k] as Choice,
  })),
  // A class split by cause, and the OAuth codes' two readings (a JSON dialect: `"causeStatus.scaHd": 400`).
  { field: 'causeStatus.scaHd', values: ['class', 400, 401, 403], default: 'class' },
  { field: 'causeStatus.cancelUnknown', values: ['class', 422, 'camt029'], default: 'class' },
  { field: 'causeStatus.businessState', values: ['class', 409], default: 'class' },
  { field: 'tokenErrorCodes', values: ['generic', 'specific'], default: 'generic' },
];

const choiceByField = new Map(dialectChoices.map((c) => [c.field, c]));

/** The status of a refusal of `refusal` (and `cause`, when it has one) in `dialect`. */
export function refusalStatusIn(dialect: Dialect, refusal: RefusalClass, cause?: RefusalCause): number {
  const own = cause ? dialect.causeStatus[cause] : 'class';
  // camt029 (cancelUnknown) refuses nothing at once: where a refusal is asked of it, its class answers.
  return typeof own === 'number' ? own : dialect.refusalStatus[refusal];
}

/**
 * Pre-refusalStatus field names, still accepted in a JSON dialect: validationStatus set the status of
 * validation, business and idempotency-conflict refusals alike; scaFailureStatus that of SCA failures.
 */
const legacyFields: Readonly<Record<string, readonly RefusalClass[]>> = {
  validationStatus: ['validation', 'business', 'conflict'],
  scaFailureStatus: ['sca'],
};

function checked(field: string, value: unknown): Choice {
  const choice = choiceByField.get(field);
  if (!choice) throw new Error(`unknown dialect field "${field}"`);
  if (!choice.values.includes(value as Choice))
    throw new Error(`dialect field ${field} must be one of ${choice.values.map((v) => JSON.stringify(v)).join(', ')}`);
  return value as Choice;
}

/**
 * A dialect from a preset name, a JSON text of an object, or the object itself (REF_DIALECT and the
 * registration field `dialect` share this grammar): fields are merged over `default`, or over the
 * preset named in an optional `base`; `name` is optional. Refusal statuses are given as a partial
 * object `refusalStatus: {sca: 403}` or as dotted fields `"refusalStatus.sca": 403`. Unknown fields or
 * values throw.
 */
export function resolveDialect(spec: string | Record<string, unknown> | undefined): Dialect {
  let fields: Record<string, unknown>;
  if (typeof spec === 'object' && spec !== null) fields = spec;
  else {
    const text = (spec ?? '').trim();
    if (text === '') return defaultDialect;
    if (!text.startsWith('{')) {
      const preset = Object.hasOwn(dialects, text) ? dialects[text] : undefined;
      if (!preset) throw new Error(`unknown dialect "${text}" (known: ${Object.keys(dialects).join(', ')})`);
      return preset;
    }
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('a JSON dialect must be an object');
    fields = parsed as Record<string, unknown>;
  }
  if (Array.isArray(fields)) throw new Error('a dialect must be a preset name or an object');
  const baseName = fields.base ?? 'default';
  if (typeof baseName !== 'string' || !Object.hasOwn(dialects, baseName))
    throw new Error(`unknown base dialect ${JSON.stringify(baseName)}`);
  const base = dialects[baseName]!;
  const nameField = fields.name;
  if (nameField !== undefined && typeof nameField !== 'string') throw new Error('dialect name must be a string');
  const out: Record<string, unknown> = { ...base, name: nameField ?? 'custom' };
  const refusal: Record<string, unknown> = { ...base.refusalStatus };
  const causes: Record<string, unknown> = { ...base.causeStatus };
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'name' || key === 'base') continue;
    if (key === 'causeStatus') {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new Error('dialect field causeStatus must be an object');
      for (const [cause, status] of Object.entries(value as Record<string, unknown>))
        causes[cause] = checked(`causeStatus.${cause}`, status);
    } else if (key.startsWith('causeStatus.')) causes[key.slice('causeStatus.'.length)] = checked(key, value);
    else if (key === 'refusalStatus') {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new Error('dialect field refusalStatus must be an object');
      for (const [cls, status] of Object.entries(value as Record<string, unknown>))
        refusal[cls] = checked(`refusalStatus.${cls}`, status);
    } else if (key.startsWith('refusalStatus.')) refusal[key.slice('refusalStatus.'.length)] = checked(key, value);
    else if (Object.hasOwn(legacyFields, key)) {
      for (const cls of legacyFields[key]!) refusal[cls] = checked(`refusalStatus.${cls}`, value);
    } else out[key] = checked(key, value);
  }
  out.refusalStatus = refusal;
  out.causeStatus = causes;
  return out as unknown as Dialect;
}
