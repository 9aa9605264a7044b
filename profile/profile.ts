/**
 * Environment profiles: one JSON file per deployment under environments/. Loading validates the file
 * against profile/profile-schema.ts (the one source of its shape and types) and turns the first problem into one sentence naming the field,
 * because a wall of ajv output is not what a QA engineer should have to read.
 */
import { existsSync, readdirSync } from 'node:fs';
import { JsonSyntaxError, readJsonFile } from './json-file';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { profileValidator, type ProfileValidator } from './profile-validator';
import type { ProfileFile } from './profile-schema';
import type { MessageShape } from './message-shape';
import { profileVariable } from './run-settings';

type RemoteTarget = Extract<ProfileFile['target'], { kind: 'remote' }>;

/**
 * The reference's answers where the spec says "not shown": a preset name, or an object of dialect
 * fields over the default (reference/README.md "Dialects"; the reference validates it on registration).
 */
export type ReferenceDialect = NonNullable<Extract<ProfileFile['target'], { kind: 'reference' }>['dialect']>;

export type OperationName = keyof ProfileFile['operations'];
/** The clients of a deployment the suite cannot register clients with: environment variable names, never values. */
export type DeclaredClients = RemoteTarget['clients'];
export type SecretRefs = DeclaredClients['primary'];
/** The forbidden registered keys of §5.4: not RSA, shorter than 2048 bits, password-encrypted, not PEM. */
export type WeakKey = keyof NonNullable<DeclaredClients['weakKeys']>;
export type Expectations = ProfileFile['expectations'];
export type RefusalClass = keyof Expectations['refusalStatus'];
export type StatusClass = keyof Expectations['statusCodes'];

/** The declared shapes of the messages the spec does not show (profile/message-shape.ts). */
export interface MessageShapes {
  /** camt.056 requests (POST camt056). */
  cancellation: MessageShape;
  /** camt.029 answers (GET camt029), with the codes that confirm or reject a cancellation. */
  resolution: MessageShape & { confirmed: string[]; rejected: string[] };
  /** pacs.007 requests (POST pacs007). */
  refund: MessageShape;
  /** The pacs.008 an incoming read serves (GET pacs008/{id}): §4.4 names the message, not its JSON shape. */
  incomingPayment: MessageShape;
}

/** A loaded profile: the file, with the message shapes it does not declare filled from DEFAULT_MESSAGE_SHAPES. */
export type Profile = Omit<ProfileFile, 'messages' | '$schema'> & { messages: MessageShapes };

/** The clients a profile names by environment variable: a remote target's, or those of a reference without admin. */
export function declaredClients(profile: Profile): DeclaredClients | undefined {
  if (profile.target.kind === 'remote') return profile.target.clients;
  return profile.target.admin === false ? profile.target.clients : undefined;
}

/** A client a profile declares by variable: its role as a sentence names it, and whether its key may be of any type. */
export interface DeclaredClient {
  role: string;
  refs: SecretRefs;
  /** A pre-registered weak-key client (target.clients.weakKeys.*): its key may be EC, its tokens are meant to be refused. */
  weak: boolean;
}

/** Every client a profile declares by variable (primary, secondary, weakKeys.*), in the profile's order. */
export function declaredClientList(profile: Profile): DeclaredClient[] {
  const clients = declaredClients(profile);
  if (!clients) return [];
  return [
    { role: 'primary', refs: clients.primary, weak: false },
    ...(clients.secondary ? [{ role: 'secondary', refs: clients.secondary, weak: false }] : []),
    ...Object.entries(clients.weakKeys ?? {}).map(([kind, refs]) => ({
      role: `weakKeys.${kind}`,
      refs: refs!,
      weak: true,
    })),
  ];
}

/** The operations §4.4 lists with no success status: which 2xx accepts them is the profile's reading. */
export type AcceptedOperation = keyof NonNullable<Expectations['acceptanceStatus']>;

/** What a profile that does not say reads: 201, as §7 answers a payment. */
export const DEFAULT_ACCEPTANCE_STATUS: readonly number[] = [201];

/**
 * How long past expires_in a target may still take an access token: RFC 7519 §4.1.4 allows a leeway
 * for clock skew, "usually no more than a few minutes" (Spring's resource server takes 60 s, ASP.NET
 * 300 s). The profile's (slowLane.tokenExpiry.leewaySeconds), else 300 s; the reference takes none.
 */
export const tokenLeewaySeconds = (profile: Pick<Profile, 'slowLane'>): number =>
  profile.slowLane?.tokenExpiry?.leewaySeconds ?? 300;

/** The 2xx an accepted camt.056, pacs.004 or pacs.007 gets (expectations.acceptanceStatus). */
export const acceptanceStatusOf = (
  expectations: Pick<Expectations, 'acceptanceStatus'>,
  op: AcceptedOperation,
): readonly number[] => expectations.acceptanceStatus?.[op] ?? DEFAULT_ACCEPTANCE_STATUS;

/**
 * The statuses a repeat of an accepted camt.056, pacs.004 or pacs.007 may get: 200, as §4.2 answers a
 * repeated payment, or the operation's own acceptance status (a target answering every camt.056 202
 * answers its repeat so too; §4.4 shows neither, and discovery learns the acceptance status).
 */
export const repeatStatusOf = (
  expectations: Pick<Expectations, 'acceptanceStatus'>,
  op: AcceptedOperation,
): readonly number[] => [...new Set([200, ...acceptanceStatusOf(expectations, op)])];

export const DEFAULT_MESSAGE_SHAPES: MessageShapes = {
  cancellation: { root: 'fitoFIPmtCxlReq' },
  resolution: { root: 'rsltnOfInvstgtn', confirmed: ['CNCL'], rejected: ['RJCR'] },
  refund: { root: 'fIToFIPmtRvsl' },
  incomingPayment: { root: 'fitoFICstmrCdtTrf' },
};

export class ProfileError extends Error {
  override name = 'ProfileError';
}

export const environmentsDir = path.resolve(__dirname, '..', 'environments');

let compiled: ProfileValidator | undefined;
/**
 * Loaded on first use (./profile-validator.ts, cached on disk): a worker loads profiles the runner
 * has validated and never pays for it.
 */
function validateProfile(json: unknown): boolean {
  compiled ??= profileValidator();
  return compiled(json) === true;
}
const profileErrors = (): ErrorObject[] => compiled?.errors ?? [];

/** One readable sentence for the first schema error, naming the field as a dotted path. */
export function describeProfileError(file: string, error: ErrorObject): string {
  const where = error.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(top level)';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${file}: missing field "${where === '(top level)' ? '' : `${where}.`}${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `${file}: unknown field "${where === '(top level)' ? '' : `${where}.`}${String(params.additionalProperty)}" (see environments/README.md for the fields a profile may have)`;
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
      incomingPayment: { ...DEFAULT_MESSAGE_SHAPES.incomingPayment, ...declared.messages?.incomingPayment },
    },
  };
  const expectedName = path.basename(file, '.json');
  if (profile.name !== expectedName) {
    throw new ProfileError(`${file}: field "name" is "${profile.name}" but must equal the file name "${expectedName}"`);
  }
  if (profile.target.kind === 'reference' && profile.target.admin === false && !profile.target.clients) {
    throw new ProfileError(
      `${file}: field "target.clients" is required when target.admin is false (the suite cannot register clients without the admin API)`,
    );
  }
  const clients = declaredClients(profile);
  if (clients) {
    const roles: [string, SecretRefs | undefined][] = [
      ['primary', clients.primary],
      ['secondary', clients.secondary],
      ...Object.entries(clients.weakKeys ?? {}).map(([k, v]): [string, SecretRefs | undefined] => [`weakKeys.${k}`, v]),
    ];
    for (const [role, refs] of roles) {
      if (!refs) continue;
      if (role === 'secondary' && !refs.memberId)
        throw new ProfileError(
          `${file}: field "target.clients.secondary.memberId" is required (the second institution's sort code: the suite pays it there, §2.2 cdtrAgt, so that it reads, returns and refunds those payments as their beneficiary's institution)`,
        );
      if (refs.privateKey) {
        for (const field of ['kid', 'iss'] as const)
          if (!refs[field])
            throw new ProfileError(
              `${file}: field "target.clients.${role}.${field}" is required with privateKey (spec §5.7: the kid and iss registered with the key)`,
            );
      } else if (role !== 'primary') {
        throw new ProfileError(
          `${file}: field "target.clients.${role}.privateKey" is required (only the primary may go without a key pair, sending the sandbox's predefined tokens of spec §5.6)`,
        );
      } else {
        const jwts =
          profile.target.kind === 'remote' || profile.target.kind === 'reference' ? profile.target.testJwts : undefined;
        if (!jwts?.assertion || !jwts.scaToken) {
          throw new ProfileError(
            `${file}: field "target.testJwts" must name both "assertion" and "scaToken" when target.clients.primary has no privateKey (a client without a key pair sends the sandbox's predefined tokens, spec §5.6)`,
          );
        }
      }
    }
  }
  if (profile.live && profile.exploration) {
    throw new ProfileError(
      `${file}: field "exploration" is not allowed on a live profile (exploration creates payments a run cannot bound in advance; live runs never explore)`,
    );
  }
  if (profile.concurrency?.retry429) {
    if (profile.concurrency.retry)
      throw new ProfileError(
        `${file}: fields "concurrency.retry" and "concurrency.retry429" are the same setting: keep "concurrency.retry"`,
      );
    // The former name: it retried 429 only; the setting now covers every transient answer.
    const { retry429, ...rest } = profile.concurrency;
    profile.concurrency = { ...rest, retry: retry429 };
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
    throw new ProfileError(
      `no profile "${name}": expected ${path.relative(process.cwd(), file)} (profiles here: ${known})`,
    );
  }
  const shown = path.relative(process.cwd(), file) || file;
  let json: unknown;
  try {
    json = readJsonFile(file, shown);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new ProfileError(error.message);
    throw error;
  }
  return parseProfile(json, shown, options);
}

export function listProfileNames(dir = environmentsDir): string[] {
  return readdirSync(dir)
    .filter(
      (f) =>
        f.endsWith('.json') &&
        !f.includes('.deviations.') &&
        !f.includes('.discovered.') &&
        f !== 'profile.schema.json',
    )
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/**
 * The path versions of an operation after its first (the default every test uses): §9 gives POST
 * pacs008 and GET pacs002 two each, and each is the same operation (§4.2, §4.3).
 */
export function furtherVersions(profile: Profile, op: OperationName): readonly string[] {
  return profile.operations[op]?.versions.slice(1) ?? [];
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

/**
 * Every environment variable a profile names for secrets that a run uses: every client (weak-key ones
 * too), and the predefined test JWTs only when a client has no key pair to sign its own (spec §5.6):
 * a client that signs never sends them, so a bank that has both is not asked for them.
 */
export function secretVariables(profile: Profile): string[] {
  const clients = declaredClients(profile);
  if (!clients) return [];
  const weak = Object.values(clients.weakKeys ?? {}).flatMap((refs) => Object.values(refs ?? {}));
  const keyless = !clients.primary.privateKey;
  const testJwts =
    keyless && (profile.target.kind === 'remote' || profile.target.kind === 'reference')
      ? Object.values(profile.target.testJwts ?? {})
      : [];
  return [
    ...new Set([...Object.values(clients.primary), ...Object.values(clients.secondary ?? {}), ...weak, ...testJwts]),
  ];
}

/** Every secret variable a profile names, used by a run or not: what a CI template maps from its secret store. */
export function declaredSecretVariables(profile: Profile): string[] {
  const testJwts =
    profile.target.kind === 'remote' || profile.target.kind === 'reference'
      ? Object.values(profile.target.testJwts ?? {})
      : [];
  return [...new Set([...secretVariables(profile), ...(declaredClients(profile) ? testJwts : [])])];
}

/** The secret variables of a profile that are unset, in the profile's order. */
export function missingSecrets(profile: Profile, env: NodeJS.ProcessEnv = process.env): string[] {
  return secretVariables(profile).filter((name) => profileVariable(name, env) === undefined);
}
