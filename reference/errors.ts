/** Error values and their rendering: API errors follow the dialect, token errors follow RFC 6749. */
import type { FastifyReply } from 'fastify';
import { type Dialect, type RefusalCause, type RefusalClass, defaultRefusalStatus, refusalStatusIn } from './dialects';

export interface FieldError {
  code: string;
  message: string;
  /** Dotted JSON path from the message root, e.g. fitoFICstmrCdtTrf.grpHdr.msgId. */
  path?: string;
}

/**
 * Thrown anywhere in a request; the global error handler renders it. A refusal of the payments API
 * names its class (README "Refusal statuses"): the status comes from the dialect of the request when
 * it is rendered, so a check never needs to know whose dialect applies. Other errors (admin API,
 * framework) carry a fixed status.
 */
export class ApiError extends Error {
  readonly refusal: RefusalClass | null;
  /** The fixed status, or the class's status in the default dialect. */
  readonly status: number;
  readonly errors: readonly FieldError[];
  readonly headers: Readonly<Record<string, string>>;
  /** The cause within the class, when a dialect may answer it otherwise (dialects.ts CauseStatus). */
  readonly refusalCause: RefusalCause | undefined;
  constructor(
    status: number | RefusalClass,
    errors: FieldError | readonly FieldError[],
    headers: Record<string, string> = {},
    cause?: RefusalCause,
  ) {
    const list = Array.isArray(errors) ? (errors as readonly FieldError[]) : [errors as FieldError];
    const fixed = typeof status === 'number' ? status : defaultRefusalStatus[status];
    super(list[0]?.message ?? `HTTP ${fixed}`);
    this.refusal = typeof status === 'number' ? null : status;
    this.status = fixed;
    this.errors = list;
    this.headers = headers;
    this.refusalCause = cause;
  }

  statusIn(dialect: Dialect): number {
    return this.refusal ? refusalStatusIn(dialect, this.refusal, this.refusalCause) : this.status;
  }
}

/** RFC 6749 §5.2 error of the token endpoint. */
export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;
  constructor(status: number, error: string, description: string) {
    super(description);
    this.status = status;
    this.error = error;
  }
}

const titles: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function sendApiError(reply: FastifyReply, dialect: Dialect, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  const status = error.statusIn(dialect);
  // RFC 9110 §15.5.2: every 401 names a challenge, also when a dialect maps another class to 401.
  if (status === 401 && !reply.hasHeader('www-authenticate'))
    reply.header('WWW-Authenticate', 'Bearer realm="payments"');
  reply.code(status);
  if (dialect.errorBody === 'problem') {
    reply.type('application/problem+json');
    return reply.send({
      type: 'about:blank',
      title: titles[status] ?? 'Error',
      status,
      detail: error.message,
      errors: error.errors,
    });
  }
  if (dialect.errorBody === 'message') {
    reply.type('application/json; charset=utf-8');
    const first = error.errors[0];
    return reply.send({ code: first?.code ?? 'error', message: first?.message ?? error.message });
  }
  reply.type('application/json; charset=utf-8');
  return reply.send({ errors: error.errors });
}

export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.error === 'invalid_client') reply.header('WWW-Authenticate', 'Basic realm="payments", charset="UTF-8"');
  reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send({ error: error.error, error_description: error.message });
}

/** The message of an unknown path (and of anything that must look like one). */
export const NOT_FOUND_MESSAGE = 'no such resource';

export const errorsOf = {
  unauthorized: (message: string): ApiError =>
    new ApiError(
      'unauthenticated',
      { code: 'unauthorized', message },
      { 'WWW-Authenticate': 'Bearer realm="payments"' },
    ),
  missingHeader: (name: string): ApiError =>
    new ApiError('missingHeader', {
      code: 'missing_header',
      message: `header ${name} is required`,
      path: `header:${name}`,
    }),
  notFound: (message = 'not found'): ApiError => new ApiError('notFound', { code: 'not_found', message }),
};
