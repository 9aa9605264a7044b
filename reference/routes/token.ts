/** POST /oauth/token route: adapts the HTTP request to the token logic and renders RFC 6749 errors. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { handleTokenRequest } from '../token';
import { faultsFor } from '../faults';
import { setRequestScope } from '../request-scope';
import { remoteKeysOf } from '../remote-keys';

export function registerTokenRoute(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/oauth/token', async (req, reply) => {
    const result = handleTokenRequest(ctx, {
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: Buffer.isBuffer(req.body) ? req.body : undefined,
      remoteKeys: remoteKeysOf(req),
    });
    setRequestScope(req, { dialect: result.client.dialect, faults: faultsFor(result.faults, 'token'), op: 'token' });
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return reply.code(result.status).send(result.body);
  });
}
