/**
 * Environment profiles: one JSON file per deployment under environments/. Loading validates the file
 * against helpers/profile-schema.ts and turns the first problem into one sentence naming the field,
 * because a wall of ajv output is not what a QA engineer should have to read.
 */
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { profileSchema } from './profile-schema';
import type { MessageShape } from './messages/shape';

export type OperationName =
  | 'submitPayment'
  | 'paymentStatus'
  | 'incomingPayment'
  | 'cancel'
  | 'cancellationStatus'
  | 'returnPayment'
  | 'refund';

export interface Operation {
  path: string;
  versions: string[];
}

export interface SecretRefs {
  clientId: string;
  clientSecret: string;
  privateKey: string;
  kid: string;
  iss: string;
  memberId?: string;
}

/** The forbidden registered keys of §5.4: not RSA, shorter than 2048 bits, password-encrypted, not PEM. */
export type WeakKey = 'ec' | 'rsa1024' | 'encrypted' | 'notPem';

/**
 * The reference's answers where the spec says "not shown": a preset name, or an object of dialect
 * fields over the default (reference/README.md "Dialects"; the reference validates it on registration).
 */
export type ReferenceDialect = string | Record<string, unknown>;

export type Target =
  | { kind: 'reference'; dialect?: ReferenceDialect; env?: Record<string, string> }
  | {
      kind: 'remote';
      baseUrl: string;
      authUrl: string;
      clients: {
        primary: SecretRefs;
        secondary?: SecretRefs;
        /**
         * Test clients the provider pre-registered with a key the spec forbids (§5.4), so the KEY rules
         * run against a target where the suite cannot register keys itself.
         */
        weakKeys?: Partial<Record<WeakKey, SecretRefs>>;
      };
      testJwts?: { assertion?: string; scaToken?: string };
      incomingPaymentId?: string;
    };

export type RefusalClass =
  | 'validation'
  /** A body that is not parseable JSON (or not UTF-8): many APIs answer 400 even where validation is 422. */
  | 'malformed'
  | 'unauthenticated'
  | 'forbidden'
  | 'sca'
  | 'notFound'
  | 'business'
  | 'mediaType'
  | 'tooLarge'
  | 'missingHeader';

export type StatusClass = 'pending' | 'accepted' | 'rejected' | 'cancelled';

export interface Expectations {
  assumptions: 'enforce' | 'report';
  refusalStatus: Record<RefusalClass, number[]>;
  errorBody?: 'errors' | 'problem' | 'message' | 'any';
  tokenErrors?: 'rfc6749' | 'any';
  statusCodes: Record<StatusClass, string[]>;
  expiresIn?: 'number' | 'string' | 'either';
  businessRejection?: 'http' | 'status' | 'either';
  returnUnknownOriginal?: 'accept' | 'refuse' | 'either';
  idempotencyConflict?: 'original' | 'reject' | 'either';
  /** Input the spec has no rule about (unknown members, deep nesting, __proto__ keys, invalid UTF-8...): refused, accepted, or either. */
  extraInput?: 'refuse' | 'accept' | 'either';
  /** The body of an idempotent 200 repeat: the original data object, nothing, only the id, or any of these. */
  repeatBody?: 'original' | 'empty' | 'id-only' | 'any';
  assertionReplay?: 'refuse' | 'allow' | 'either';
  rejectTrigger?: { creditorAccount: string; reasonCode: string };
}

export interface Capabilities {
  keyRegistration: boolean;
  notifications: boolean;
  rejectTrigger: boolean;
  batchControl: boolean;
  tokenLifetimeControl: boolean;
}

/** The declared shapes of the messages the spec does not show (helpers/messages/shape.ts). */
export interface MessageShapes {
  /** camt.056 requests (POST camt056). */
  cancellation: MessageShape;
  /** camt.029 answers (GET camt029), with the codes that confirm or reject a cancellation. */
  resolution: MessageShape & { confirmed: string[]; rejected: string[] };
  /** pacs.007 requests (POST pacs007). */
  refund: MessageShape;
}

export const DEFAULT_MESSAGE_SHAPES: MessageShapes = {
  cancellation: { root: 'fitoFIPmtCxlReq' },
  resolution: { root: 'rsltnOfInvstgtn', confirmed: ['CNCL'], rejected: ['RJCR'] },
  refund: { root: 'fIToFIPmtRvsl' },
};

export interface Profile {
  name: string;
  description?: string;
  /** Where the report's spec links point (helpers/spec-links.ts); default: spec.html next to the report. */
  specUrl?: string;
  live?: boolean;
  target: Target;
  tokenPath?: string;
  pathPrefix: string;
  operations: Partial<Record<OperationName, Operation>> & Record<'submitPayment' | 'paymentStatus', Operation>;
  capabilities: Capabilities;
  expectations: Expectations;
  /** Filled with DEFAULT_MESSAGE_SHAPES where the file says nothing. */
  messages: MessageShapes;
  polling: { intervalMs: number; maxIntervalMs: number; timeoutMs: number };
  /**
   * How many settled payments the return/refund pool prepares per refill (default 12), and whether a
   * worker starts the observations and the first refill when it starts (default true; never on live).
   */
  prefetch?: { settledPayments: number; atWorkerStart?: boolean };
  concurrency?: { workers?: number; retry429?: { maxRetries: number; budgetMs: number } };
  /**
   * The @slow lane (PAYMENTS_SLOW=1, the nightly template): tests that wait out real time, such as an
   * access token's expires_in when it is at most `tokenExpiry.maxWaitSeconds`.
   */
  slowLane?: { tokenExpiry?: { maxWaitSeconds: number } };
  liveLimits?: { maxPayments: number; maxAmount: number };
}

export class ProfileError extends Error {
  override name = 'ProfileError';
}

export const environmentsDir = path.resolve(__dirname, '..', 'environments');

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;
const ajv = new Ajv({ allErrors: false, strict: true, discriminator: true });
addFormats(ajv);
let compiled: ReturnType<typeof ajv.compile> | undefined;
/** Compiled on first use: a worker loads profiles the runner has validated and never needs it. */
const validateProfile = (json: unknown): boolean => (compiled ??= ajv.compile(profileSchema))(json) === true;
const profileErrors = (): ErrorObject[] => compiled?.errors ?? [];

/** One readable sentence for the first schema error, naming the field as a dotted path. */
export function describeProfileError(file: string, error: ErrorObject): string {
  const where = error.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(top level)';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${file}: missing field "${where === '(top level)' ? '' : where + '.'}${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `${file}: unknown field "${where === '(top level)' ? '' : where + '.'}${String(params.additionalProperty)}" (see environments/README.md for the fields a profile may have)`;
    case 'enum':
      return `${file}: field "${where}" must be one of ${JSON.stringify(params.allowedValues)}`;
    case 'oneOf':
    case 'discriminator':
      return `${file}: field "${where}" must be {"kind":"reference"} or {"kind":"remote", "baseUrl", "authUrl", "clients"}`;
    default:
      return `${file}: field "${where}" ${error.message ?? 'is invalid'}`;
  }
}

export function parseProfile(json: unknown, file: string, options: { validated?: boolean } = {}): Profile {
  if (!options.validated && !validateProfile(json)) {
    const errors = profileErrors();
    // oneOf reports its branches first; the most specific error is the deepest one.
    const deepest = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
    throw new ProfileError(deepest ? describeProfileError(file, deepest) : `${file}: invalid profile`);
  }
  const declared = json as unknown as Omit<Profile, 'messages'> & { messages?: Partial<MessageShapes> };
  const profile: Profile = {
    ...declared,
    messages: {
      cancellation: { ...DEFAULT_MESSAGE_SHAPES.cancellation, ...declared.messages?.cancellation },
      resolution: { ...DEFAULT_MESSAGE_SHAPES.resolution, ...declared.messages?.resolution },
      refund: { ...DEFAULT_MESSAGE_SHAPES.refund, ...declared.messages?.refund },
    },
  };
  const expectedName = path.basename(file, '.json');
  if (profile.name !== expectedName) {
    throw new ProfileError(`${file}: field "name" is "${profile.name}" but must equal the file name "${expectedName}"`);
  }
  if (profile.polling.maxIntervalMs < profile.polling.intervalMs) {
    throw new ProfileError(`${file}: field "polling.maxIntervalMs" must be at least polling.intervalMs`);
  }
  return profile;
}

/** `validated`: the runner validated this profile already (a worker loading the config again). */
export function loadProfile(name: string, dir = environmentsDir, options: { validated?: boolean } = {}): Profile {
  const file = path.join(dir, `${name}.json`);
  if (!existsSync(file)) {
    const known = listProfileNames(dir).join(', ');
    throw new ProfileError(`no profile "${name}": expected ${path.relative(process.cwd(), file)} (profiles here: ${known})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ProfileError(`${path.relative(process.cwd(), file)} is not valid JSON: ${(error as Error).message}`);
  }
  return parseProfile(json, path.relative(process.cwd(), file) || file, options);
}

export function listProfileNames(dir = environmentsDir): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.includes('.deviations.') && !f.includes('.discovered.') && f !== 'profile.schema.json')
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** The URL path of an operation for one version, e.g. /payments/pacs008/v10. */
export function operationPath(profile: Profile, op: OperationName, version?: string, id?: string): string {
  const operation = profile.operations[op];
  if (!operation) throw new ProfileError(`profile ${profile.name} has no operations.${op}`);
  const v = version ?? operation.versions[0]!;
  let p = profile.pathPrefix + operation.path.replace('{version}', v);
  if (id !== undefined) p = p.replace('{id}', encodeURIComponent(id));
  return p;
}

/** Every environment variable a remote profile names for secrets: every client (weak-key ones too) and the test JWTs. */
export function secretVariables(profile: Profile): string[] {
  if (profile.target.kind !== 'remote') return [];
  const { clients, testJwts } = profile.target;
  const weak = Object.values(clients.weakKeys ?? {}).flatMap((refs) => Object.values(refs ?? {}));
  return [...new Set([...Object.values(clients.primary), ...Object.values(clients.secondary ?? {}), ...weak, ...Object.values(testJwts ?? {})])];
}

/** The secret variables of a profile that are unset, in the profile's order. */
export function missingSecrets(profile: Profile, env: NodeJS.ProcessEnv = process.env): string[] {
  return secretVariables(profile).filter((name) => !env[name]);
}
