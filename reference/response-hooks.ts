/**
 * Request hooks that act for a route on what it sends. The route has recorded its caller (request
 * scope); the hooks read that caller's faults.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from './context';
import { requestScope } from './request-scope';

export function registerResponseHooks(app: FastifyInstance, _ctx: ServiceContext): void {
  // answers-non-json (AT-06): the route hands the framework its JSON already serialised as a string,
  // which goes out as text/plain, the classic slip of `reply.send(JSON.stringify(body))`.
  app.addHook('onSend', async (req, reply, payload) => {
    const scope = requestScope(req);
    if (!scope?.faults.has('answers-non-json') || reply.statusCode >= 300 || payload === undefined || payload === null || payload === '') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (/json/i.test(type)) reply.header('content-type', 'text/plain; charset=utf-8');
    return payload;
  });
}
