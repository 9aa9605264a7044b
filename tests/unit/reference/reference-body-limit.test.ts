/**
 * Oversized bodies get a clean 413 from the reference, whatever their size or framing: the service
 * reads and discards the rest of the body before answering, so the client never writes into a
 * closed connection (EPIPE, ECONNRESET). Every try must get its 413; none may break.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import type { ReferenceHandle } from '../../../reference/server';
import { startRef } from '../support/reference-http';

let ref: ReferenceHandle;

// The service reads a refused body to its end: on a loaded machine a 2 MB body once took longer
// than the default 10 s a request may take (a 408, ci45). The timeout is not what these tests test.
before(async () => {
  ref = await startRef({ requestTimeoutMs: 120_000, headersTimeoutMs: 5_000 });
});
after(async () => {
  await ref.close();
});

const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

interface Outcome {
  status?: number;
  connection?: string;
  body?: string;
  error?: string;
}

/**
 * POSTs `size` bytes in 64 KiB writes (with Content-Length, or chunked), honouring back-pressure.
 * Settles once the response has ended and the whole request has been written; an error on either
 * side (EPIPE, ECONNRESET: the server closed while the client was still writing) is the outcome.
 */
function postLarge(size: number, chunked: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = {};
    let responded = false;
    let written = false;
    let settled = false;
    const settle = (): void => {
      if (!settled && (outcome.error !== undefined || (responded && written))) {
        settled = true;
        resolve(outcome);
      }
    };
    const fail = (where: string, e: NodeJS.ErrnoException): void => {
      outcome.error ??= `${where}: ${e.code ?? e.message}`;
      settle();
    };
    const agent = new Agent({ keepAlive: false });
    const req = request(`${ref.url}/payments/pacs008/v10`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(size) }) },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        Object.assign(outcome, { status: res.statusCode, connection: res.headers.connection, body });
        responded = true;
        settle();
      });
      res.on('error', (e) => fail('response', e));
    });
    req.on('error', (e) => fail('request', e));
    req.on('finish', () => {
      written = true;
      settle();
    });
    let sent = 0;
    const pump = (): void => {
      while (sent < size) {
        if (outcome.error !== undefined) return;
        const n = Math.min(CHUNK.length, size - sent);
        sent += n;
        if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

for (const [label, size, chunked] of [
  ['2 MB', 2 * MB, false],
  ['5 MB', 5 * MB, false],
  ['20 MB', 20 * MB, false],
  ['5 MB chunked', 5 * MB, true],
] as const) {
  test(`a ${label} body gets a clean 413, then the connection closes (3 tries)`, { timeout: 120_000 }, async () => {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const outcome = await postLarge(size, chunked);
      assert.equal(outcome.error, undefined, `try ${attempt}: the connection broke (${outcome.error})`);
      assert.equal(outcome.status, 413, `try ${attempt}: ${JSON.stringify(outcome).slice(0, 300)}`);
      assert.equal(outcome.connection, 'close');
      assert.match(outcome.body ?? '', /payload_too_large/, 'the refusal names its reason');
    }
  });
}

test('a body just under the limit is still read and answered by the route (not 413)', async () => {
  const outcome = await postLarge(ref.config.maxBodyBytes, false);
  assert.equal(outcome.error, undefined);
  assert.notEqual(outcome.status, 413);
});
