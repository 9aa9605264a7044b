/** JSON Schema of an environment profile (environments/<name>.json). Every field is documented in environments/README.md. */
const secretRefs = {
  type: 'object',
  additionalProperties: false,
  required: ['clientId', 'clientSecret', 'privateKey', 'kid', 'iss'],
  properties: {
    clientId: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
    clientSecret: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
    privateKey: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
    kid: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
    iss: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
    memberId: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
  },
} as const;

const operation = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'versions'],
  properties: {
    path: { type: 'string', pattern: '^/.*\\{version\\}' },
    versions: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: '^v[0-9]+$' } },
  },
} as const;

const names = { type: 'object', additionalProperties: { type: 'string', minLength: 1 } } as const;
const messageShape = {
  type: 'object',
  additionalProperties: false,
  properties: { root: { type: 'string', minLength: 1 }, rename: names },
} as const;

const statusList = { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: '^[A-Z]{4}$' } } as const;
const httpStatuses = { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'integer', minimum: 400, maximum: 499 } } as const;

export const profileSchema = {
  $id: 'payments-profile',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'target', 'pathPrefix', 'operations', 'capabilities', 'expectations', 'polling'],
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
    description: { type: 'string' },
    specUrl: { type: 'string', minLength: 1 },
    live: { type: 'boolean' },
    target: {
      // The discriminator makes ajv report the errors of the branch that `kind` names, not those of the first branch.
      type: 'object',
      discriminator: { propertyName: 'kind' },
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['kind'],
          properties: {
            kind: { const: 'reference' },
            // A preset name, or an object of dialect fields (the reference checks names and values).
            dialect: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'object' }] },
            env: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'baseUrl', 'authUrl', 'clients'],
          properties: {
            kind: { const: 'remote' },
            baseUrl: { type: 'string', format: 'uri', pattern: '^https?://' },
            authUrl: { type: 'string', format: 'uri', pattern: '^https?://' },
            clients: {
              type: 'object',
              additionalProperties: false,
              required: ['primary'],
              properties: {
                primary: secretRefs,
                secondary: secretRefs,
                weakKeys: {
                  type: 'object',
                  additionalProperties: false,
                  properties: { ec: secretRefs, rsa1024: secretRefs, encrypted: secretRefs, notPem: secretRefs },
                },
              },
            },
            testJwts: {
              type: 'object',
              additionalProperties: false,
              properties: {
                assertion: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
                scaToken: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
              },
            },
            incomingPaymentId: { type: 'string' },
          },
        },
      ],
    },
    tokenPath: { type: 'string', pattern: '^/' },
    pathPrefix: { type: 'string', pattern: '^(/[^/]+)*$' },
    operations: {
      type: 'object',
      additionalProperties: false,
      required: ['submitPayment', 'paymentStatus'],
      properties: {
        submitPayment: operation,
        paymentStatus: operation,
        incomingPayment: operation,
        cancel: operation,
        cancellationStatus: operation,
        returnPayment: operation,
        refund: operation,
      },
    },
    capabilities: {
      type: 'object',
      additionalProperties: false,
      required: ['keyRegistration', 'notifications', 'rejectTrigger', 'batchControl', 'tokenLifetimeControl'],
      properties: {
        keyRegistration: { type: 'boolean' },
        notifications: { type: 'boolean' },
        rejectTrigger: { type: 'boolean' },
        batchControl: { type: 'boolean' },
        tokenLifetimeControl: { type: 'boolean' },
      },
    },
    expectations: {
      type: 'object',
      additionalProperties: false,
      required: ['assumptions', 'refusalStatus', 'statusCodes'],
      properties: {
        assumptions: { enum: ['enforce', 'report'] },
        refusalStatus: {
          type: 'object',
          additionalProperties: false,
          required: ['validation', 'malformed', 'unauthenticated', 'forbidden', 'sca', 'notFound', 'business', 'mediaType', 'tooLarge', 'missingHeader'],
          properties: {
            validation: httpStatuses,
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
        },
        errorBody: { enum: ['errors', 'problem', 'message', 'any'] },
        tokenErrors: { enum: ['rfc6749', 'any'] },
        statusCodes: {
          type: 'object',
          additionalProperties: false,
          required: ['pending', 'accepted', 'rejected', 'cancelled'],
          properties: { pending: statusList, accepted: statusList, rejected: statusList, cancelled: statusList },
        },
        expiresIn: { enum: ['number', 'string', 'either'] },
        businessRejection: { enum: ['http', 'status', 'either'] },
        returnUnknownOriginal: { enum: ['accept', 'refuse', 'either'] },
        idempotencyConflict: { enum: ['original', 'reject', 'either'] },
        repeatBody: { enum: ['original', 'empty', 'id-only', 'any'] },
        extraInput: { enum: ['refuse', 'accept', 'either'] },
        assertionReplay: { enum: ['refuse', 'allow', 'either'] },
        rejectTrigger: {
          type: 'object',
          additionalProperties: false,
          required: ['creditorAccount', 'reasonCode'],
          properties: { creditorAccount: { type: 'string' }, reasonCode: { type: 'string' } },
        },
      },
    },
    messages: {
      type: 'object',
      additionalProperties: false,
      properties: {
        cancellation: messageShape,
        resolution: {
          type: 'object',
          additionalProperties: false,
          properties: { ...messageShape.properties, confirmed: statusList, rejected: statusList },
        },
        refund: messageShape,
      },
    },
    polling: {
      type: 'object',
      additionalProperties: false,
      required: ['intervalMs', 'maxIntervalMs', 'timeoutMs'],
      properties: {
        intervalMs: { type: 'integer', minimum: 10 },
        maxIntervalMs: { type: 'integer', minimum: 10 },
        timeoutMs: { type: 'integer', minimum: 100 },
      },
    },
    prefetch: {
      type: 'object',
      additionalProperties: false,
      required: ['settledPayments'],
      properties: { settledPayments: { type: 'integer', minimum: 1, maximum: 1000 }, atWorkerStart: { type: 'boolean' } },
    },
    concurrency: {
      type: 'object',
      additionalProperties: false,
      properties: {
        workers: { type: 'integer', minimum: 1, maximum: 64 },
        retry429: {
          type: 'object',
          additionalProperties: false,
          required: ['maxRetries', 'budgetMs'],
          properties: { maxRetries: { type: 'integer', minimum: 0 }, budgetMs: { type: 'integer', minimum: 0 } },
        },
      },
    },
    slowLane: {
      type: 'object',
      additionalProperties: false,
      properties: {
        tokenExpiry: {
          type: 'object',
          additionalProperties: false,
          required: ['maxWaitSeconds'],
          properties: { maxWaitSeconds: { type: 'integer', minimum: 1, maximum: 86400 } },
        },
      },
    },
    liveLimits: {
      type: 'object',
      additionalProperties: false,
      required: ['maxPayments', 'maxAmount'],
      properties: { maxPayments: { type: 'integer', minimum: 0 }, maxAmount: { type: 'number', exclusiveMinimum: 0 } },
    },
  },
} as const;
