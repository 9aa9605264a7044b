/**
 * Broken targets (REF_BROKEN): the payments API as provider sandboxes are often broken, behind a
 * token endpoint that works, so a suite run reaches the API and meets the breakage on every request.
 *  - `answers-500`: every payments request is answered 500 (a backend that is down);
 *  - `refuses-400`: every payments request is answered 400 (a gateway that refuses everything);
 *  - `mock`: every POST is answered 201 with one canned, plausible body and every read 404 (a mock
 *    sandbox generated from the examples: it validates nothing and keeps nothing).
 * Like the sandbox conditions they answer before any route (an onRequest hook), as a gateway or a
 * mock server in front of nothing would; the token endpoint and the admin API are left alone.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from './context';
import { ApiError, errorsOf, sendApiError, NOT_FOUND_MESSAGE } from './errors';
import { requestDialect } from './request-scope';

/** The mock's one answer to every POST: the shape of spec §2.3, the same bytes whatever was sent. */
export const CANNED_CREATED = {
  data: {
    paymentsServiceId: '5f0c6a2e-8b1d-4c3e-9a7f-2d4b6e8c0a11',
    paymentId: 'MSG-20240101-000001',
    status: 'PENDING',
    creationDateTime: '2024-01-01T10:00:00',
  },
} as const;

/** Requests the breakage leaves alone: the admin API and the token endpoint (spec §4.1). */
const untouched = (url: string): boolean => url.startsWith('/_admin') || url === '/oauth/token';

export function registerBrokenTarget(app: FastifyInstance, ctx: ServiceContext): void {
  const mode = ctx.config.broken;
  if (!mode) return;
  app.addHook('onRequest', async (req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if (untouched(url)) return;
    const dialect = requestDialect(ctx, req);
    if (mode === 'answers-500')
      return sendApiError(
        reply,
        dialect,
        new ApiError(500, { code: 'internal_error', message: 'internal error (REF_BROKEN=answers-500)' }),
      );
    if (mode === 'refuses-400')
      return sendApiError(
        reply,
        dialect,
        new ApiError(400, { code: 'bad_request', message: 'request refused (REF_BROKEN=refuses-400)' }),
      );
    if (req.method === 'POST') return reply.code(201).type('application/json; charset=utf-8').send(CANNED_CREATED);
    return sendApiError(reply, dialect, errorsOf.notFound(NOT_FOUND_MESSAGE));
  });
}
