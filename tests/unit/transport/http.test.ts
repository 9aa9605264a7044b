/**
 * HttpClient is the only way tests talk to a target: what it records is the evidence in the report,
 * its 429 handling decides whether a rate limit shows up as a failure or a hidden wait, and its
 * "unreachable" message is what a user sees when the profile URL is wrong. Checked against a tiny
 * node:http server on a loopback port.
 * Run: node --import tsx --test tests/unit/transport/http.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  clientKey,
  HttpClient,
  Pacer,
  type PacerRank,
  retryAfterMs,
  TargetUnreachableError,
  TransportFailure,
  type Exchange,
  type HttpRequest,
} from '../../../transport/http';

type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
const hits = new Map<string, number>();
let server: Server;
let base = '';

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = new URL(req.url ?? '/', 'http://x').pathname;
      hits.set(key, (hits.get(key) ?? 0) + 1);
      const handler = routes.get(key);
      if (handler) handler(req, Buffer.concat(chunks), res);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A fresh path per test, so hit counts never mix. */
let n = 0;
function route(handler: Handler): { url: string; hits: () => number } {
  const p = `/r${++n}`;
  routes.set(p, handler);
  return { url: `${base}${p}?q=1`, hits: () => hits.get(p) ?? 0 };
}

test('records the request and the response whole, and parses JSON', async () => {
  const seen: Exchange[] = [];
  const r = route((req, body, res) => {
    res.writeHead(201, {
      'content-type': 'application/json; charset=utf-8',
      'x-echo-method': req.method ?? '',
      'x-echo-h': String(req.headers['x-h']),
    });
    res.end(JSON.stringify({ data: { got: body.toString('utf8') } }));
  });
  const client = new HttpClient({ onExchange: (e) => seen.push(e) });
  const req = {
    method: 'POST' as const,
    url: r.url,
    headers: { 'content-type': 'application/json', 'x-h': 'v' },
    body: '{"a":"é"}',
  };
  const ex = await client.send('submit payment (twin)', req);
  assert.equal(ex.label, 'submit payment (twin)');
  assert.deepEqual(ex.request, req);
  assert.equal(ex.response.status, 201);
  assert.equal(ex.response.headers['x-echo-method'], 'POST');
  assert.equal(ex.response.headers['x-echo-h'], 'v');
  assert.match(ex.response.headers['content-type']!, /application\/json/);
  assert.deepEqual(ex.response.json, { data: { got: '{"a":"é"}' } });
  assert.equal(ex.response.text, JSON.stringify({ data: { got: '{"a":"é"}' } }));
  assert.ok(!Number.isNaN(Date.parse(ex.startedAt)));
  assert.ok(ex.durationMs >= 0);
  assert.deepEqual(ex.retries, []);
  assert.deepEqual(seen, [ex], 'onExchange sees every exchange once');
});

test('sends body bytes exactly, including bytes that are not UTF-8', async () => {
  const r = route((_req, body, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end(createHash('sha256').update(body).digest('hex')),
  );
  const bytes = Uint8Array.from([0x7b, 0xff, 0xfe, 0x00, 0xc3, 0x28, 0x7d]);
  const ex = await new HttpClient().send('bytes', {
    method: 'POST',
    url: r.url,
    headers: { 'content-type': 'application/json' },
    body: bytes,
  });
  assert.equal(ex.response.text, createHash('sha256').update(bytes).digest('hex'));
  assert.equal(ex.response.json, undefined, 'text/plain is not parsed');
});

test('JSON is parsed only when it is JSON: bad JSON and empty bodies give undefined', async () => {
  const bad = route((_req, _b, res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"errors": ['));
  const empty = route((_req, _b, res) => res.writeHead(204).end());
  const problem = route((_req, _b, res) =>
    res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"title":"x"}'),
  );
  const client = new HttpClient();
  const b = await client.send('bad', { method: 'GET', url: bad.url, headers: {} });
  assert.equal(b.response.status, 400);
  assert.equal(b.response.json, undefined);
  assert.equal(b.response.text, '{"errors": [');
  const e = await client.send('empty', { method: 'GET', url: empty.url, headers: {} });
  assert.equal(e.response.status, 204);
  assert.equal(e.response.json, undefined);
  const p = await client.send('problem', { method: 'GET', url: problem.url, headers: {} });
  assert.deepEqual(p.response.json, { title: 'x' });
});

test('429 with Retry-After: 0 then 200: retried once, the retry is recorded', async () => {
  let calls = 0;
  const r = route((_req, _b, res) => {
    if (++calls === 1) res.writeHead(429, { 'retry-after': '0' }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  const seen: Exchange[] = [];
  const ex = await new HttpClient({ onExchange: (e) => seen.push(e) }).send('status', {
    method: 'GET',
    url: r.url,
    headers: {},
  });
  assert.equal(ex.response.status, 200);
  assert.deepEqual(ex.response.json, { ok: true });
  assert.deepEqual(ex.retries, [{ status: 429, waitedMs: 0 }]);
  assert.equal(r.hits(), 2);
  assert.equal(seen.length, 1, 'one exchange, with its retries inside');
});

test('429 whose Retry-After exceeds the budget is returned, not retried', async () => {
  const r = route((_req, _b, res) =>
    res.writeHead(429, { 'retry-after': '60', 'content-type': 'application/json' }).end('{"errors":[]}'),
  );
  const started = Date.now();
  const ex = await new HttpClient({ retry429: { maxRetries: 3, budgetMs: 1_000 } }).send('limited', {
    method: 'GET',
    url: r.url,
    headers: {},
  });
  assert.equal(ex.response.status, 429);
  assert.equal(ex.response.headers['retry-after'], '60');
  assert.deepEqual(ex.retries, []);
  assert.equal(r.hits(), 1);
  assert.ok(Date.now() - started < 30_000, 'did not wait the 60 s');
});

test('429 retries stop at maxRetries; the budget is shared by all waits', async () => {
  const always = route((_req, _b, res) => res.writeHead(429, { 'retry-after': '0' }).end());
  const ex = await new HttpClient({ retry429: { maxRetries: 2, budgetMs: 10_000 } }).send('always', {
    method: 'GET',
    url: always.url,
    headers: {},
  });
  assert.equal(ex.response.status, 429);
  assert.equal(ex.retries.length, 2);
  assert.equal(always.hits(), 3);

  const slow = route((_req, _b, res) => res.writeHead(429, { 'retry-after': '0.06' }).end());
  const ex2 = await new HttpClient({ retry429: { maxRetries: 10, budgetMs: 100 } }).send('budget', {
    method: 'GET',
    url: slow.url,
    headers: {},
  });
  assert.equal(ex2.retries.length, 1, '60 ms fits the 100 ms budget once, not twice');
  assert.ok(ex2.retries.every((x) => x.waitedMs === 60));
});

test('maxRetries 0 never retries', async () => {
  const r = route((_req, _b, res) => res.writeHead(429, { 'retry-after': '0' }).end());
  const ex = await new HttpClient({ retry429: { maxRetries: 0, budgetMs: 10_000 } }).send('none', {
    method: 'GET',
    url: r.url,
    headers: {},
  });
  assert.equal(ex.response.status, 429);
  assert.equal(r.hits(), 1);
});

test('connection refused → TargetUnreachableError naming the origin', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const url = `http://127.0.0.1:${port}/payments/pacs008/v10`;
  await assert.rejects(new HttpClient().send('refused', { method: 'GET', url, headers: {} }), (error: unknown) => {
    assert.ok(error instanceof TargetUnreachableError, `got ${String(error)}`);
    assert.equal(error.name, 'TargetUnreachableError');
    assert.match(error.message, new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    assert.match(error.message, /profile/);
    return true;
  });
});

test('retryAfterMs: seconds, HTTP date, absent, garbage', () => {
  assert.equal(retryAfterMs('0'), 0);
  assert.equal(retryAfterMs('2'), 2_000);
  assert.equal(retryAfterMs('1.5'), 1_500);
  assert.equal(retryAfterMs('-5'), 0);
  assert.equal(retryAfterMs(undefined), 1_000);
  assert.equal(retryAfterMs('soon'), 1_000);
  assert.equal(retryAfterMs(new Date(Date.now() - 60_000).toUTCString()), 0);
  const future = retryAfterMs(new Date(Date.now() + 30_000).toUTCString());
  assert.ok(future > 28_000 && future <= 30_000, String(future));
});

// ── a sandbox's conditions: 503s, lost connections, pacing ───────────────────────────────────────

test('503 with Retry-After on a read: retried within the budget, every retry recorded', async () => {
  let calls = 0;
  const r = route((_req, _b, res) => {
    if (++calls < 3) res.writeHead(503, { 'retry-after': '0' }).end();
    else res.writeHead(200).end('ok');
  });
  const ex = await new HttpClient({ retry: { maxRetries: 4, budgetMs: 1_000 } }).send('status read', {
    method: 'GET',
    url: r.url,
    headers: {},
  });
  assert.equal(ex.response.status, 200);
  assert.deepEqual(ex.retries, [
    { status: 503, waitedMs: 0 },
    { status: 503, waitedMs: 0 },
  ]);
  assert.equal(r.hits(), 3);
});

test('503 on a POST that is not marked repeatable is returned at once: a first submission may have been processed', async () => {
  const r = route((_req, _b, res) => res.writeHead(503, { 'retry-after': '0' }).end());
  const ex = await new HttpClient().send('submit', { method: 'POST', url: r.url, headers: {}, body: '{}' });
  assert.equal(ex.response.status, 503);
  assert.deepEqual(ex.retries, []);
  assert.equal(r.hits(), 1);
});

test('a 429 is retried on any request (the limiter refused it unprocessed); 502/503/504 only on a repeatable one', async () => {
  let calls = 0;
  const r = route((_req, _b, res) =>
    ++calls === 1 ? res.writeHead(429, { 'retry-after': '0' }).end() : res.writeHead(201).end(),
  );
  const ex = await new HttpClient().send('submit', { method: 'POST', url: r.url, headers: {}, body: '{}' });
  assert.equal(ex.response.status, 201);
  assert.deepEqual(ex.retries, [{ status: 429, waitedMs: 0 }]);
  for (const status of [502, 503, 504]) {
    let n = 0;
    const g = route((_req, _b, res) => (++n === 1 ? res.writeHead(status).end() : res.writeHead(200).end()));
    const repeat = await new HttpClient({ retry: { maxRetries: 2, budgetMs: 5_000 } }).send(
      'repeat',
      { method: 'POST', url: g.url, headers: {}, body: '{}' },
      { repeatable: true },
    );
    assert.equal(repeat.response.status, 200, `${status} retried on a repeatable POST`);
    assert.equal(repeat.retries[0]!.status, status);
  }
});

test('renew builds each next attempt (a fresh nonce); the exchange records the attempt that was answered', async () => {
  const seenNonces: string[] = [];
  const r = route((req, _b, res) => {
    seenNonces.push(String(req.headers['x-nonce']));
    if (seenNonces.length === 1) res.writeHead(503, { 'retry-after': '0' }).end();
    else res.writeHead(200).end();
  });
  let nonce = 0;
  const build = (): HttpRequest => ({
    method: 'POST',
    url: r.url,
    headers: { 'x-nonce': String(++nonce) },
    body: 'same',
  });
  const ex = await new HttpClient().send('token', build(), { repeatable: true, renew: build });
  assert.deepEqual(seenNonces, ['1', '2']);
  assert.equal(ex.request.headers['x-nonce'], '2');
});

test('a lost connection: retried on a read, a TransportFailure (inconclusive) once the retries are spent or on a POST', async () => {
  let calls = 0;
  const flaky = route((req, _b, res) => {
    if (++calls === 1) req.socket.destroy();
    else res.writeHead(200).end('ok');
  });
  const ex = await new HttpClient().send('read', { method: 'GET', url: flaky.url, headers: {} });
  assert.equal(ex.response.status, 200);
  assert.equal(ex.retries[0]!.status, 0);
  assert.match(ex.retries[0]!.error ?? '', /ECONNRESET|UND_ERR_SOCKET/);

  const dead = route((req) => req.socket.destroy());
  await assert.rejects(
    new HttpClient({ retry: { maxRetries: 1, budgetMs: 5_000 } }).send('read', {
      method: 'GET',
      url: dead.url,
      headers: {},
    }),
    (error: unknown) => {
      assert.ok(error instanceof TransportFailure);
      assert.equal(error.retries.length, 1);
      assert.match(error.message, /got no answer/);
      return true;
    },
  );
  const before = dead.hits();
  await assert.rejects(
    new HttpClient().send('submit', { method: 'POST', url: dead.url, headers: {}, body: '{}' }),
    TransportFailure,
  );
  assert.equal(dead.hits() - before, 1, 'a POST is never sent twice after a lost connection');
});

test('the former option name retry429 is still read', async () => {
  const r = route((_req, _b, res) => res.writeHead(503, { 'retry-after': '0' }).end());
  const ex = await new HttpClient({ retry429: { maxRetries: 1, budgetMs: 1_000 } }).send('read', {
    method: 'GET',
    url: r.url,
    headers: {},
  });
  assert.equal(ex.retries.length, 1);
});

test('Pacer: each client gets evenly spaced turns; clients do not wait for each other; an idle client starts at once; an unpaced one costs nothing', async () => {
  // Turns 400 ms apart and "at once" as under 200 ms: a loaded machine delays a timer by tens of ms.
  const intervals: Record<string, number | undefined> = { a: 400, b: 400 };
  const pacer = new Pacer((key) => intervals[key]);
  const started = Date.now();
  const at = (key: string) => pacer.turn(key)!.then(() => Date.now() - started);
  const [a1, a2, a3, b1] = await Promise.all([at('a'), at('a'), at('a'), at('b')]);
  assert.ok(a1 < 200 && b1 < 200, `first turns at once: ${a1}, ${b1}`);
  assert.ok(a2 >= 395 && a3 >= 795, `a's turns 400 ms apart: ${a1}, ${a2}, ${a3}`);
  await new Promise((resolve) => setTimeout(resolve, 900));
  const idle = Date.now();
  await pacer.turn('a');
  assert.ok(Date.now() - idle < 200, 'no debt carried over an idle time');
  assert.equal(pacer.turn('c'), undefined, 'a client with no interval is not paced');
});

test('Pacer: a token request goes before the requests waiting for it, a test’s before background work’s', async () => {
  const pacer = new Pacer(() => 30);
  const order: string[] = [];
  const go = (name: string, rank?: PacerRank) => pacer.turn('a', () => order.push(name), rank)!;
  await go('first');
  await Promise.all([go('background', 'background'), go('test'), go('token', 'token'), go('second test')]);
  assert.deepEqual(order, ['first', 'token', 'test', 'second test', 'background']);
});

test('Pacer: a rate that changes while requests wait applies to them at once', async () => {
  let interval = 10_000;
  const pacer = new Pacer(() => interval);
  await pacer.turn('a');
  const waiting = pacer.turn('a')!;
  interval = 20;
  const started = Date.now();
  // The waiting request was due 10 s after the first; at the new rate it goes at its next check.
  await Promise.race([
    waiting,
    new Promise((_, reject) => setTimeout(() => reject(new Error('still waiting')), 2_000)),
  ]);
  assert.ok(Date.now() - started < 400, `${Date.now() - started} ms`);
});

test('paced requests of one client reach the server no faster than the rate', async () => {
  const times: number[] = [];
  const r = route((_req, _b, res) => {
    times.push(Date.now());
    res.writeHead(200).end();
  });
  const client = new HttpClient({ requestsPerSecond: 20 });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 5 }, () =>
      client.send('read', { method: 'GET', url: r.url, headers: { 'x-client-id': 'c1' } }),
    ),
  );
  assert.equal(times.length, 5);
  assert.ok(
    times.at(-1)! - started >= 4 * 50 - 5,
    `the fifth request of 5 at 20/s leaves 200 ms after the first, took ${times.at(-1)! - started}`,
  );
});

test("clientKey: the X-Client-Id, else the Basic credentials' client", () => {
  assert.equal(
    clientKey({ method: 'GET', url: 'http://x', headers: { 'X-Client-Id': 'c1', authorization: 'Bearer t' } }),
    'c1',
  );
  assert.equal(
    clientKey({
      method: 'POST',
      url: 'http://x',
      headers: { authorization: `Basic ${Buffer.from('c2:secret').toString('base64')}` },
    }),
    'c2',
  );
  assert.equal(clientKey({ method: 'GET', url: 'http://x', headers: {} }), '');
});

test('atTurn rewrites the request when its turn in the paced queue comes: the request sent and recorded is its result', async () => {
  const r = route((req, _body, res) => {
    res.writeHead(200, { 'x-echo-auth': String(req.headers.authorization) }).end();
  });
  // Two requests of one client at 2 a second: the second waits its turn, and its token is the one current then.
  const client = new HttpClient({ requestsPerSecond: 2 });
  let current = 'first';
  const fresh = async (request: HttpRequest): Promise<HttpRequest> => ({
    ...request,
    headers: { ...request.headers, authorization: `Bearer ${current}` },
  });
  const queued = (n: number): HttpRequest => ({
    method: 'GET',
    url: r.url,
    headers: { 'x-client-id': 'c1', authorization: `Bearer built-with-${n}` },
  });
  const one = client.send('read', queued(1), { atTurn: fresh });
  const two = client.send('read', queued(2), { atTurn: fresh });
  await one;
  current = 'renewed';
  const second = await two;
  assert.equal((await one).response.headers['x-echo-auth'], 'Bearer first');
  assert.equal(second.response.headers['x-echo-auth'], 'Bearer renewed');
  assert.equal(second.request.headers.authorization, 'Bearer renewed');
});
