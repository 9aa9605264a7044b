/**
 * Dialects: the service's choices where the spec says "not shown". Each field is one choice; the
 * suite's environment profiles describe the same choices for remote targets.
 */
export interface Dialect {
  name: string;
  /** HTTP status for schema/business validation failures. */
  validationStatus: 400 | 422;
  /** errors: {"errors":[{code,message,path}]}; problem: RFC 9457 application/problem+json. */
  errorBody: 'errors' | 'problem';
  interimStatus: 'PEND' | 'PDNG' | 'ACSP';
  acceptedStatus: 'ACCC' | 'ACSC';
  rejectStatus: 'RJCT' | 'RJTC';
  expiresInType: 'number' | 'string';
  accessTokenFormat: 'jwt' | 'opaque';
  paymentsServiceIdFormat: 'uuid' | 'prefixed';
  /** A return whose original payment the service does not know. */
  returnUnknownOriginal: 'accept' | 'refuse';
  scaFailureStatus: 401 | 403;
  /** http: refused at submission with validationStatus; status: 201, then rejected in pacs.002. */
  businessRejection: 'http' | 'status';
  /** Same msgId, different body. original: 200 with the original; reject: validationStatus. */
  idempotencyConflict: 'original' | 'reject';
  /** A reused jti of an authentication JWT. */
  assertionReplay: 'refuse' | 'allow';
}

export const defaultDialect: Dialect = {
  name: 'default',
  validationStatus: 400,
  errorBody: 'errors',
  interimStatus: 'PEND',
  acceptedStatus: 'ACCC',
  rejectStatus: 'RJCT',
  expiresInType: 'number',
  accessTokenFormat: 'jwt',
  paymentsServiceIdFormat: 'uuid',
  returnUnknownOriginal: 'accept',
  scaFailureStatus: 401,
  businessRejection: 'http',
  idempotencyConflict: 'original',
  assertionReplay: 'refuse',
};

export const dialects: Readonly<Record<string, Dialect>> = {
  default: defaultDialect,
  'strict-422': {
    ...defaultDialect,
    name: 'strict-422',
    validationStatus: 422,
    errorBody: 'problem',
    interimStatus: 'PDNG',
    rejectStatus: 'RJTC',
    expiresInType: 'string',
    accessTokenFormat: 'opaque',
    paymentsServiceIdFormat: 'prefixed',
    scaFailureStatus: 403,
  },
  lenient: {
    ...defaultDialect,
    name: 'lenient',
    returnUnknownOriginal: 'refuse',
    interimStatus: 'ACSP',
    acceptedStatus: 'ACSC',
    businessRejection: 'status',
    assertionReplay: 'allow',
  },
};

/** Allowed values per field, so a JSON dialect from the environment is checked, not trusted. */
const allowed: { [K in Exclude<keyof Dialect, 'name'>]: readonly Dialect[K][] } = {
  validationStatus: [400, 422],
  errorBody: ['errors', 'problem'],
  interimStatus: ['PEND', 'PDNG', 'ACSP'],
  acceptedStatus: ['ACCC', 'ACSC'],
  rejectStatus: ['RJCT', 'RJTC'],
  expiresInType: ['number', 'string'],
  accessTokenFormat: ['jwt', 'opaque'],
  paymentsServiceIdFormat: ['uuid', 'prefixed'],
  returnUnknownOriginal: ['accept', 'refuse'],
  scaFailureStatus: [401, 403],
  businessRejection: ['http', 'status'],
  idempotencyConflict: ['original', 'reject'],
  assertionReplay: ['refuse', 'allow'],
};

/** REF_DIALECT: a preset name, or a JSON object of fields merged over `default` (or over `base` if named). */
export function resolveDialect(spec: string | undefined): Dialect {
  const text = (spec ?? '').trim();
  if (text === '') return defaultDialect;
  if (!text.startsWith('{')) {
    const preset = dialects[text];
    if (!preset) throw new Error(`unknown dialect "${text}" (known: ${Object.keys(dialects).join(', ')})`);
    return preset;
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('REF_DIALECT JSON must be an object');
  const fields = parsed as Record<string, unknown>;
  const baseName = typeof fields['base'] === 'string' ? fields['base'] : 'default';
  const base = dialects[baseName];
  if (!base) throw new Error(`unknown base dialect "${baseName}"`);
  const out: Record<string, unknown> = { ...base, name: typeof fields['name'] === 'string' ? fields['name'] : 'custom' };
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'name' || key === 'base') continue;
    const values = (allowed as Record<string, readonly unknown[]>)[key];
    if (!values) throw new Error(`unknown dialect field "${key}"`);
    if (!values.includes(value)) throw new Error(`dialect field ${key} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
    out[key] = value;
  }
  return out as unknown as Dialect;
}
