/**
 * The one source of an environment profile's shape (environments/<name>.json): the loader validates
 * with it, the TypeScript types are `Static<>` of it (profile/profile.ts), and
 * environments/profile.schema.json, which editors use through each profile's "$schema", is generated
 * from it (`npm run profile-schema`; tests/unit/profile/profile-schema.test.ts fails when the file is stale).
 * environments/README.md explains every field at length.
 *
 * A new field is one entry in the object it belongs to (with a description: editors show it), then
 * `npm run profile-schema` and a row in environments/README.md.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** An object that refuses members it does not declare: a typo in a profile is an error, not a silent default. */
const Strict = <T extends Parameters<typeof Type.Object>[0]>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

/** One of a fixed set of strings, as a JSON Schema `enum` (the loader's message lists the choices). */
const OneOf = <const T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: values, description });

const envName = (description: string) => Type.String({ pattern: '^[A-Z_][A-Z0-9_]*$', description });

const secretRefs = Strict(
  {
    clientId: envName('variable holding the client ID (also X-Client-Id and the assertion sub)'),
    clientSecret: envName('variable holding the client secret (HTTP Basic on the token request)'),
    privateKey: Type.Optional(
      envName(
        "variable holding the client's RSA private key: PEM text or a path to a PEM file. Only the primary may leave it out, with target.testJwts: it then sends the sandbox's predefined tokens (spec §5.6)",
      ),
    ),
    kid: Type.Optional(
      envName('variable holding the key ID registered with the public key (required with privateKey)'),
    ),
    iss: Type.Optional(
      envName('variable holding the issuer registered with the public key (required with privateKey)'),
    ),
    memberId: Type.Optional(envName("variable holding the institution's sort code (clrSysMmbId.mmbId)")),
  },
  'environment variable NAMES (never values) of one client',
);

/** The clients of a deployment the suite cannot register clients with: environment variable names, never values. */
const declaredClients = Strict({
  primary: secretRefs,
  secondary: Type.Optional(secretRefs),
  weakKeys: Type.Optional(
    Strict(
      {
        ec: Type.Optional(secretRefs),
        rsa1024: Type.Optional(secretRefs),
        rsa2047: Type.Optional(secretRefs),
        encrypted: Type.Optional(secretRefs),
        notPem: Type.Optional(secretRefs),
      },
      'test clients the provider registered with a key spec §5.4 forbids, so the KEY rules run where the suite cannot register keys',
    ),
  ),
});

const testJwts = Type.Optional(
  Strict(
    {
      assertion: Type.Optional(envName("variable holding the sandbox's predefined authentication JWT (spec §5.6)")),
      scaToken: Type.Optional(envName("variable holding the sandbox's predefined SCA JWT (spec §5.6)")),
    },
    'the sandbox test JWTs: what a primary without privateKey sends instead of signing (spec §5.6)',
  ),
);

const referenceTarget = Strict({
  kind: Type.Literal('reference'),
  dialect: Type.Optional(
    Type.Union([Type.String({ minLength: 1 }), Type.Record(Type.String(), Type.Unknown())], {
      description:
        'a preset of reference/dialects.ts (default "default"), or an object of dialect fields over it, e.g. {"refundRoot": "fitoFIPmtRvsl"} (the reference checks names and values)',
    }),
  ),
  env: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: 'extra REF_* environment of the reference process (reference/README.md)',
    }),
  ),
  admin: Type.Optional(
    Type.Boolean({
      description:
        'false: the reference starts without its admin API, like a sandbox; the runner makes the clients below and the reference knows them from its start (REF_CLIENTS)',
    }),
  ),
  clients: Type.Optional(declaredClients),
  testJwts,
});

const httpUrl = (description: string) => Type.String({ format: 'uri', pattern: '^https?://', description });

const remoteTarget = Strict({
  kind: Type.Literal('remote'),
  baseUrl: httpUrl('{base_url} of the spec: the payments API'),
  authUrl: httpUrl('{auth_url} of the spec: the authentication API'),
  clients: declaredClients,
  testJwts,
  incomingPaymentId: Type.Optional(
    Type.String({ description: 'a paymentsServiceId of an incoming payment known to exist for the primary client' }),
  ),
});

/**
 * A JSON Schema union TypeBox has no builder for: `oneOf` with ajv's discriminator, which reports the
 * errors of the branch `kind` names instead of those of every branch.
 */
const target = Type.Unsafe<Static<typeof referenceTarget> | Static<typeof remoteTarget>>({
  type: 'object',
  discriminator: { propertyName: 'kind' },
  oneOf: [referenceTarget, remoteTarget],
  description:
    'where the API is: {"kind":"reference"} starts the embedded reference; {"kind":"remote"} names a deployment',
});

const operation = Strict({
  path: Type.String({ pattern: '^/.*\\{version\\}', description: 'path after pathPrefix, with {version} (and {id})' }),
  versions: Type.Array(Type.String({ pattern: '^v[0-9]+$' }), {
    minItems: 1,
    uniqueItems: true,
    description: 'the first is used by every test; every one is checked',
  }),
});

const operations = Strict({
  submitPayment: operation,
  paymentStatus: operation,
  incomingPayment: Type.Optional(operation),
  cancel: Type.Optional(operation),
  cancellationStatus: Type.Optional(operation),
  returnPayment: Type.Optional(operation),
  refund: Type.Optional(operation),
});

const capabilities = Strict({
  keyRegistration: Type.Boolean({ description: 'the suite can register client keys itself' }),
  notifications: Type.Boolean({ description: 'the suite can receive notifications (spec §6)' }),
  rejectTrigger: Type.Boolean({
    description: 'a documented input makes a payment settle as rejected (expectations.rejectTrigger)',
  }),
  batchControl: Type.Boolean({ description: 'the suite decides when a batch is sent' }),
  tokenLifetimeControl: Type.Boolean({ description: 'the suite can get short-lived access tokens' }),
});

const httpStatuses = Type.Array(Type.Integer({ minimum: 400, maximum: 499 }), { minItems: 1, uniqueItems: true });
const successStatuses = (operation: string) =>
  Type.Optional(
    Type.Array(Type.Integer({ minimum: 200, maximum: 299 }), {
      minItems: 1,
      uniqueItems: true,
      description: `the 2xx an accepted ${operation} gets (default [201])`,
    }),
  );
const statusList = Type.Array(Type.String({ pattern: '^[A-Z]{4}$' }), { minItems: 1, uniqueItems: true });

const expectations = Strict(
  {
    assumptions: OneOf(
      ['enforce', 'report'],
      'enforce: an unmet assumption fails the test; report: it only annotates it',
    ),
    refusalStatus: Strict(
      {
        validation: httpStatuses,
        /** A body that is not parseable JSON (or not UTF-8): many APIs answer 400 even where validation is 422. */
        malformed: httpStatuses,
        unauthenticated: httpStatuses,
        forbidden: httpStatuses,
        sca: httpStatuses,
        notFound: httpStatuses,
        business: httpStatuses,
        mediaType: httpStatuses,
        tooLarge: httpStatuses,
        missingHeader: httpStatuses,
      },
      'the 4xx statuses expected for each refusal class',
    ),
    errorBody: Type.Optional(OneOf(['errors', 'problem', 'message', 'any'], 'shape of payments-API error bodies')),
    errorNamesField: Type.Optional(
      OneOf(
        ['always', 'unchecked'],
        'whether a validation error names the field the mutation touched, by its JSON name or its ISO 20022 tag (ERR-03; default always): a schema validator may name only the element it expected next, and libxml2 lists at most ten of them',
      ),
    ),
    tokenErrors: Type.Optional(OneOf(['rfc6749', 'any'], 'token endpoint errors follow RFC 6749 §5.2, or unchecked')),
    tokenErrorCodes: Type.Optional(
      OneOf(
        ['generic', 'specific', 'either'],
        'with tokenErrors rfc6749: a missing grant_type, scope or assertion gets invalid_request (generic), the parameter’s own code (specific), or either (default; RFC 6749 §5.2 allows both)',
      ),
    ),
    statusCodes: Strict(
      { pending: statusList, accepted: statusList, rejected: statusList, cancelled: statusList },
      'txSts codes of each status class',
    ),
    expiresIn: Type.Optional(OneOf(['number', 'string', 'either'], 'how expires_in is rendered')),
    businessRejection: Type.Optional(
      OneOf(['http', 'status', 'either'], 'a 4xx at submission, or 201 then rejected in pacs.002'),
    ),
    returnUnknownOriginal: Type.Optional(
      OneOf(['accept', 'refuse', 'either'], 'what a return of an unknown payment gets'),
    ),
    onUs: Type.Optional(
      OneOf(
        ['incoming', 'notIncoming'],
        'a payment of the client to its own sort code (clients.primary.memberId): its incoming payment, which it reads, returns and refunds as the beneficiary (default), or not (the target answers 404 and refuses those); the spec does not say',
      ),
    ),
    cancelUnknownPayment: Type.Optional(
      OneOf(
        ['notFound', 'business', 'either'],
        'the refusal class of a camt.056 cancelling a payment the caller does not have (never made, or another client’s): not found (refusalStatus.notFound, e.g. 404), a business refusal (refusalStatus.business, e.g. 422), or either (default); §1 rule 1 says it is refused, not how',
      ),
    ),
    idempotencyConflict: Type.Optional(
      OneOf(['original', 'reject', 'either'], 'a repeated msgId with another body: 200 with the original, or refused'),
    ),
    repeatBody: Type.Optional(OneOf(['original', 'empty', 'id-only', 'any'], 'the body of an idempotent 200 repeat')),
    extraInput: Type.Optional(
      OneOf(
        ['refuse', 'accept', 'either'],
        'input the spec has no rule about (deep nesting, __proto__ keys, invalid UTF-8)',
      ),
    ),
    assertionReplay: Type.Optional(OneOf(['refuse', 'allow', 'either'], 'a reused authentication JWT jti')),
    scaJtiReplay: Type.Optional(OneOf(['refuse', 'allow', 'either'], 'a reused SCA JWT jti')),
    payerIncomingRead: Type.Optional(
      OneOf(
        ['refuse', 'allow', 'either'],
        'the payer reading its own payment through the incoming endpoint (GET pacs008/{id}), the beneficiary’s view',
      ),
    ),
    refundUnknownRoot: Type.Optional(
      OneOf(['refuse', 'allow', 'either'], 'a pacs.007 under a root nobody declared (the spec does not name its root)'),
    ),
    rtrIdReuse: Type.Optional(
      OneOf(['refuse', 'allow', 'either'], 'a new return reusing the rtrId of an earlier one, for another payment'),
    ),
    scaNonceReplay: Type.Optional(
      OneOf(['refuse', 'allow', 'either'], 'a reused SCA JWT nonce, in a new token over another message'),
    ),
    amountPrecision: Type.Optional(
      OneOf(
        ['refuse', 'accept', 'either'],
        'an amount with more decimals than its currency’s minor units (ISO 4217: 2 for GBP and EUR); the spec only types amounts as numbers',
      ),
    ),
    amountDigits: Type.Optional(OneOf(['refuse', 'accept', 'either'], 'an amount beyond ISO 20022’s 18 total digits')),
    notificationPayload: Type.Optional(
      OneOf(
        ['event-id-time', 'any'],
        'the body of a notification (not shown): {event, paymentsServiceId, creationDateTime}, or unchecked',
      ),
    ),
    returnAnswer: Type.Optional(
      OneOf(
        ['data', 'id-only', 'any'],
        'the answer to an accepted pacs.004 (not shown): a §2.3 data object, {"data":{"paymentsServiceId"}}, or any 2xx body',
      ),
    ),
    refundAnswer: Type.Optional(
      OneOf(
        ['data', 'id-only', 'any'],
        'the answer to an accepted pacs.007 (not shown): a data object like §2.3’s, {"data":{"paymentsServiceId"}}, or any 2xx body',
      ),
    ),
    cancelAnswer: Type.Optional(
      OneOf(
        ['data', 'id-only', 'any'],
        'the answer to an accepted camt.056 (not shown): a data object like §2.3 (paymentsServiceId, status PENDING, creationDateTime), {"data":{"paymentsServiceId"}}, or any 2xx body (one naming nothing included: camt029 is then read by the payment’s id)',
      ),
    ),
    acceptanceStatus: Type.Optional(
      Strict(
        {
          cancel: successStatuses('camt.056'),
          returnPayment: successStatuses('pacs.004'),
          refund: successStatuses('pacs.007'),
        },
        'the success status of the operations §4.4 lists without one (§7’s 201 is the payment’s): 201 Created, 202 Accepted…; a Location header, where sent, names the resource',
      ),
    ),
    isoAnswers: Type.Optional(
      OneOf(
        ['valid', 'any'],
        'whether the target’s answers (pacs.002, camt.029, the incoming pacs.008) are valid under their ISO 20022 version’s XSD: valid holds them to it (ISO-01); any only reports what ISO would refuse',
      ),
    ),
    returnSpecSpellings: Type.Optional(
      OneOf(
        ['refuse', 'allow', 'either'],
        'a pacs.004 in §2.5’s own spellings where ISO 20022’s pacs.004.001.09 differs (chrgsInf.amt without its agent, pstlAdr.strNme, purp as a string, txInf.pmtId)',
      ),
    ),
    partyWithoutName: Type.Optional(
      OneOf(
        ['refuse', 'allow', 'either'],
        'a pacs.008 whose debtor or creditor has no nm: §2.2’s shape table types nm, it does not require it, and ISO 20022’s Nm is optional',
      ),
    ),
    returnCreditorName: Type.Optional(
      OneOf(
        ['party', 'direct', 'either'],
        'where a pacs.004 carries the creditor name: orgnlTxRef.cdtr.pty.nm (§2.5’s table, ISO 20022), orgnlTxRef.cdtr.nm (§2.5’s request example), or either',
      ),
    ),
    nbOfTxsNumber: Type.Optional(
      OneOf(
        ['accept', 'refuse', 'either'],
        'grpHdr.nbOfTxs sent as the JSON number 1: §2.2 types it "number (sent as a digit string)"',
      ),
    ),
    msgIdEcho: Type.Optional(
      OneOf(
        ['paymentId', 'paymentsId', 'either'],
        'the name of the data member that echoes grpHdr.msgId: §2.3’s example writes paymentId, its field table paymentsId',
      ),
    ),
    scaOnCancellation: Type.Optional(
      OneOf(
        ['required', 'notRequired', 'verifiedWhenPresent', 'either'],
        'whether camt.056 carries and is checked by the sca-token: required (and checked), not required (nor checked), or verified when present (not required, checked when sent); §5.5 asks it of "every request that submits a payment", which a cancellation is not, while §4.4 lists camt.056 among the submitting POSTs',
      ),
    ),
    scaOnRefund: Type.Optional(
      OneOf(
        ['required', 'notRequired', 'verifiedWhenPresent', 'either'],
        'whether pacs.007 carries and is checked by the sca-token: required (and checked), not required (nor checked), or verified when present (not required, checked when sent); §5.5 asks it of "every request that submits a payment", §1 names the refund apart from the payment, and §4.4 does not show pacs.007’s headers',
      ),
    ),
    rejectTrigger: Type.Optional(
      Strict(
        { creditorAccount: Type.String(), reasonCode: Type.String() },
        'with capability rejectTrigger: a payment to this account settles rejected with this reason',
      ),
    ),
  },
  'assumptions where the spec says "not shown" (documented rules are always strict)',
);

const messageShapeFields = {
  root: Type.Optional(Type.String({ minLength: 1, description: 'the root element the target uses' })),
  rename: Type.Optional(
    Type.Record(Type.String(), Type.String({ minLength: 1 }), {
      description: "canonical member name → the target's name, at every depth",
    }),
  ),
};
const messageShape = Strict(messageShapeFields);

const messages = Strict(
  {
    cancellation: Type.Optional(messageShape),
    resolution: Type.Optional(
      Strict({
        ...messageShapeFields,
        confirmed: Type.Optional(statusList),
        rejected: Type.Optional(statusList),
      }),
    ),
    refund: Type.Optional(messageShape),
    incomingPayment: Type.Optional(messageShape),
  },
  'the shapes of the messages the spec does not show (camt.056, camt.029, pacs.007, the pacs.008 of an incoming read); defaults in profile/profile.ts',
);

const polling = Strict(
  {
    intervalMs: Type.Integer({ minimum: 10, description: 'first wait between two status reads' }),
    maxIntervalMs: Type.Integer({ minimum: 10, description: 'the wait grows up to this (at least intervalMs)' }),
    timeoutMs: Type.Integer({ minimum: 100, description: 'give up after this long' }),
  },
  'how status polling waits for a payment to move',
);

const prefetch = Strict(
  {
    settledPayments: Type.Integer({
      minimum: 1,
      maximum: 1000,
      description: 'settled payments the return/refund pool pays per refill',
    }),
    atWorkerStart: Type.Optional(
      Type.Boolean({
        description: 'start observations and the first refill when a worker starts (default true; never on live)',
      }),
    ),
  },
  'work started ahead of the tests that wait for the scheme',
);

const retryPolicy = (what: string) =>
  Strict(
    {
      maxRetries: Type.Integer({ minimum: 0, description: 'how often one request is sent again' }),
      budgetMs: Type.Integer({ minimum: 0, description: 'total time one request may spend waiting to be sent again' }),
    },
    what,
  );

const concurrency = Strict(
  {
    workers: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 64, description: 'Playwright workers cap (PAYMENTS_WORKERS overrides)' }),
    ),
    retry: Type.Optional(
      retryPolicy(
        'transient answers (429, 502, 503, 504; Retry-After honoured) and lost connections are retried within this budget: a 429 on any request, the others on reads, token requests and repeats of accepted messages (default {"maxRetries":4,"budgetMs":30000})',
      ),
    ),
    retry429: Type.Optional(retryPolicy('former name of retry (read as retry; a profile may not set both)')),
    rateLimit: Type.Optional(
      Strict(
        {
          requestsPerSecond: Type.Number({
            exclusiveMinimum: 0,
            description:
              'requests a second the target allows one client; the run paces each client to it, shared by the workers',
          }),
          tokenEndpoint: Type.Optional(
            Strict(
              {
                requestsPerSecond: Type.Number({
                  exclusiveMinimum: 0,
                  description: 'requests a second the token endpoint allows its bucket',
                }),
                per: Type.Union([Type.Literal('client'), Type.Literal('address')], {
                  description:
                    'whom the bucket counts: each client apart, or every client of the run together (the runner’s address)',
                }),
              },
              "the token endpoint's own bucket; absent, token requests count in their client's requests per second",
            ),
          ),
        },
        "the target's rate limit per client: requests are paced to it instead of bouncing off 429s",
      ),
    ),
  },
  'workers, retries of transient answers, and the rate limit',
);

const slowLane = Strict(
  {
    tokenExpiry: Type.Optional(
      Strict(
        {
          maxWaitSeconds: Type.Integer({ minimum: 1, maximum: 86400 }),
          leewaySeconds: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 3600,
              description:
                'how long past expires_in the target may still take the token (RFC 7519 §4.1.4: a leeway for clock skew, usually no more than a few minutes); default 300. The slow lane waits it out; the expiry test with tokenLifetimeControl uses a token taken after expires_in again until it has passed',
            }),
          ),
        },
        'wait out an access token expires_in when it is at most this',
      ),
    ),
  },
  'the @slow lane (PAYMENTS_SLOW=1): tests that wait out real time',
);

const exploration = Strict(
  {
    sequences: Type.Integer({
      minimum: 1,
      maximum: 10000,
      description: 'how many command sequences npm run explore runs',
    }),
    paymentsPerSequence: Type.Integer({
      minimum: 1,
      maximum: 20,
      description: 'the most payments one sequence may create',
    }),
    commandsPerSequence: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 50, description: 'the most commands of one sequence (default 8)' }),
    ),
  },
  'budget of the stateful exploration (npm run explore, tests tagged @explore); absent: the profile is not explored; never on a live profile',
);

const liveLimits = Strict(
  {
    maxPayments: Type.Integer({ minimum: 0, description: 'the most payments one live run may submit' }),
    maxAmount: Type.Number({ exclusiveMinimum: 0, description: 'the largest amount one live payment may carry' }),
    beneficiary: Type.Optional(
      Strict(
        {
          memberId: Type.String({ minLength: 1, description: 'the sort code of the institution holding the account' }),
          account: Type.String({ minLength: 1, description: 'the account number (cdtrAcct.id.othr.id)' }),
          name: Type.String({ minLength: 1, description: 'the account holder’s name (cdtr.nm)' }),
        },
        'the account every live payment pays: one your bank holds for testing. Absent: a live run submits no payment',
      ),
    ),
  },
  'upper bounds for a live run',
);

export const profileSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: 'editor hint only: "./profile.schema.json"' })),
    name: Type.String({
      pattern: '^[a-z0-9][a-z0-9-]*$',
      description: 'equals the file name; the Playwright project name',
    }),
    description: Type.Optional(Type.String()),
    specUrl: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'where the report spec links point (default spec.html next to the report)',
      }),
    ),
    live: Type.Optional(Type.Boolean({ description: 'a deployment that moves real money: the live guard applies' })),
    target,
    tokenPath: Type.Optional(
      Type.String({ pattern: '^/', description: 'token endpoint path on authUrl (default /oauth/token)' }),
    ),
    assertionAudience: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "the aud claim of every authentication JWT the declared clients sign, for a token endpoint that requires one (RFC 7523 §3: a value identifying the authorization server, e.g. its token endpoint's URL). Default none: the spec's claim table has no aud, and a library such as PyJWT refuses an aud it was not told to expect",
      }),
    ),
    pathPrefix: Type.String({
      pattern: '^(/[^/]+)*$',
      description: 'prefix of every payments path ("/payments" or "")',
    }),
    operations,
    capabilities,
    expectations,
    messages: Type.Optional(messages),
    polling,
    prefetch: Type.Optional(prefetch),
    concurrency: Type.Optional(concurrency),
    slowLane: Type.Optional(slowLane),
    exploration: Type.Optional(exploration),
    liveLimits: Type.Optional(liveLimits),
  },
  { $id: 'payments-profile', additionalProperties: false, title: 'Payments conformance suite: environment profile' },
);

/** A profile file as written (before the loader fills defaults). */
export type ProfileFile = Static<typeof profileSchema>;

/** The JSON Schema document editors read: the same schema, without TypeBox's in-memory markers. */
export function profileSchemaDocument(): string {
  const document: TSchema = { $schema: 'http://json-schema.org/draft-07/schema#', ...profileSchema };
  return `${JSON.stringify(document, null, 2)}\n`;
}
