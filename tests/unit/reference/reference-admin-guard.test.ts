/**
 * The reference's admin API answers loopback peers only, decided on the route the request matched,
 * not on the raw URL text: an encoded path (/%5Fadmin/info) reaches the same route and must be
 * refused (404) to a remote peer as well.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp, createContext } from '../../../reference/server';
import { loadConfig } from '../../../reference/config';

let app: FastifyInstance;

before(async () => {
  app = buildApp(createContext(loadConfig({ admin: true }, {})));
  await app.ready();
});
after(async () => {
  await app.close();
});

const REMOTE = '10.0.0.1';
const LOOPBACK = '127.0.0.1';

const ADMIN_CALLS: { method: 'GET' | 'HEAD' | 'POST'; url: string }[] = [
  { method: 'GET', url: '/_admin/info' },
  { method: 'GET', url: '/%5Fadmin/info' },
  { method: 'HEAD', url: '/%5Fadmin/info' },
  { method: 'GET', url: '/%5fadmin/info' },
  { method: 'GET', url: '/_admin/%66aults' },
  { method: 'GET', url: '/%5F%61dmin/faults' },
  { method: 'POST', url: '/%5Fadmin/clients' },
  { method: 'POST', url: '/%5Fadmin/clients/anyone/send-batch' },
];

test('every admin route, raw or percent-encoded, is 404 to a non-loopback peer', async () => {
  for (const call of ADMIN_CALLS) {
    const response = await app.inject({
      ...call,
      remoteAddress: REMOTE,
      ...(call.method === 'POST' ? { headers: { 'content-type': 'application/json' }, payload: '{}' } : {}),
    });
    assert.equal(
      response.statusCode,
      404,
      `${call.method} ${call.url} from ${REMOTE}: ${response.statusCode} ${response.body.slice(0, 200)}`,
    );
  }
});

test('from loopback the same routes answer (encoded or not)', async () => {
  for (const url of ['/_admin/info', '/%5Fadmin/info']) {
    const response = await app.inject({ method: 'GET', url, remoteAddress: LOOPBACK });
    assert.equal(response.statusCode, 200, url);
    assert.ok('knobs' in (response.json() as object));
  }
  const ipv6 = await app.inject({ method: 'GET', url: '/%5Fadmin/faults', remoteAddress: '::1' });
  assert.equal(ipv6.statusCode, 200);
});

test('a remote peer’s 404 looks like any unknown path', async () => {
  const admin = await app.inject({ method: 'GET', url: '/%5Fadmin/info', remoteAddress: REMOTE });
  const unknown = await app.inject({ method: 'GET', url: '/no/such/path', remoteAddress: REMOTE });
  assert.equal(admin.statusCode, unknown.statusCode);
  assert.equal(admin.body, unknown.body);
});
