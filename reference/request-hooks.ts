/**
 * Hooks that act for the routes: the remote-key prefetch of the x5u/jku faults (before the handler),
 * and answers-non-json on what the route sends (the route has recorded its caller in the request
 * scope; the hook reads that caller's faults for the operation).
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from './context';
import { requestScope } from './request-scope';
import { registerRemoteKeyPrefetch } from './remote-keys';

export function registerRequestHooks(app: FastifyInstance, ctx: ServiceContext): void {
  registerRemoteKeyPrefetch(app, ctx);

  // answers-non-json (AT-06): the route hands the framework its JSON already serialised as a string,
  // which goes out as text/plain, the classic slip of `reply.send(JSON.stringify(body))`.
  app.addHook('onSend', async (req, reply, payload) => {
    const scope = requestScope(req);
    if (
      !scope?.faults.has('answers-non-json') ||
      reply.statusCode >= 300 ||
      payload === undefined ||
      payload === null ||
      payload === ''
    )
      return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (/json/i.test(type)) reply.header('content-type', 'text/plain; charset=utf-8');
    return payload;
  });
}
