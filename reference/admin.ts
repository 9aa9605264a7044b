/**
 * Local-only admin API (README): client registration, manual batch sending, fault catalogue, info.
 * Requests from non-loopback peers get 404, as if the API did not exist.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from './context';
import { faultCatalogue } from './faults';
import { dialectChoices, dialects } from './dialects';
import { ApiError, errorsOf, NOT_FOUND_MESSAGE } from './errors';
import { isLoopbackHost } from './config';

function fromLoopback(req: FastifyRequest): boolean {
  return isLoopbackHost(req.socket.remoteAddress ?? '');
}

function jsonBody(req: FastifyRequest): unknown {
  const raw = req.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new ApiError(400, { code: 'malformed_body', message: 'the body is not valid JSON' });
  }
}

/**
 * The guard belongs to the admin routes themselves (a route-level onRequest hook), so it runs for
 * whatever URL text the router matched to them: /%5Fadmin/info decodes to /_admin/info and reaches
 * the same route. A check on the raw URL (req.url.startsWith('/_admin')) let it through. Its 404 is
 * the one of an unknown path.
 */
const loopbackOnly = {
  onRequest: async (req: FastifyRequest): Promise<void> => {
    if (!fromLoopback(req)) throw errorsOf.notFound(NOT_FOUND_MESSAGE);
  },
};

export function registerAdminRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/_admin/clients', loopbackOnly, async (req, reply) => {
    const result = ctx.registry.register(jsonBody(req));
    if (!result.ok || !result.client) {
      throw new ApiError(
        result.memberIdTaken ? 409 : 400,
        result.problems.map((message) => ({
          code: result.memberIdTaken ? 'member_id_taken' : 'invalid_registration',
          message,
        })),
      );
    }
    return reply.code(201).send({ clientId: result.client.clientId });
  });

  app.post<{ Params: { clientId: string } }>(
    '/_admin/clients/:clientId/send-batch',
    loopbackOnly,
    async (req, reply) => {
      if (!ctx.registry.get(req.params.clientId)) throw errorsOf.notFound('unknown client');
      return reply.code(200).send({ sent: ctx.lifecycle.sendBatch(req.params.clientId) });
    },
  );

  app.get('/_admin/faults', loopbackOnly, async () => faultCatalogue);

  app.get('/_admin/info', loopbackOnly, async () => {
    const { dialect, faults, ...knobs } = ctx.config;
    return { dialect, knobs, faults, dialectChoices, dialectPresets: dialects };
  });
}
