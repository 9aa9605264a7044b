/** POST /oauth/token route: adapts the HTTP request to the token logic and renders RFC 6749 errors. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { handleTokenRequest } from '../token';

export function registerTokenRoute(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/oauth/token', async (req, reply) => {
    const result = handleTokenRequest(ctx, {
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: Buffer.isBuffer(req.body) ? req.body : undefined,
    });
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return reply.code(result.status).send(result.body);
  });
}
