/**
 * Request and header timeouts of the reference (REF_REQUEST_TIMEOUT_MS, REF_HEADERS_TIMEOUT_MS): a
 * body or header block that never completes gets 408 and its connection closed, instead of holding
 * the connection for Node's default five minutes. No timing is asserted: without the timeouts these
 * tests would wait far beyond their own test timeout and fail.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { ReferenceHandle } from '../../../reference/server';
import { loadConfig } from '../../../reference/config';
import { startRef } from '../support/reference-http';

let ref: ReferenceHandle;

before(async () => {
  ref = await startRef({ requestTimeoutMs: 600, headersTimeoutMs: 300 });
});
after(async () => {
  await ref.close();
});

/** Writes `head` on a raw connection, never finishes the request; resolves with all the server sent once it closes. */
function stall(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(ref.port, '127.0.0.1');
    let received = '';
    socket.on('connect', () => socket.write(head));
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

test('a body that never completes is answered 408 and its connection closed', { timeout: 60_000 }, async () => {
  const answer = await stall(
    'POST /payments/pacs008/v10 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"fitoFICstmrCdtTrf":',
  );
  assert.match(answer, /^HTTP\/1\.1 408 /);
});

test('headers that never complete are answered 408 and the connection closed', { timeout: 60_000 }, async () => {
  const answer = await stall('POST /payments/pacs008/v10 HTTP/1.1\r\nHost: x\r\nContent-Type: application/js');
  assert.match(answer, /^HTTP\/1\.1 408 /);
});

test('the knobs: defaults 10 s and 5 s, REF_* variables, headers timeout at most the request timeout', () => {
  const defaults = loadConfig({}, {});
  assert.equal(defaults.requestTimeoutMs, 10_000);
  assert.equal(defaults.headersTimeoutMs, 5_000);
  const env = loadConfig({}, { REF_REQUEST_TIMEOUT_MS: '2000', REF_HEADERS_TIMEOUT_MS: '1500' });
  assert.equal(env.requestTimeoutMs, 2_000);
  assert.equal(env.headersTimeoutMs, 1_500);
  assert.equal(loadConfig({}, { REF_REQUEST_TIMEOUT_MS: '1000' }).headersTimeoutMs, 1_000);
  assert.throws(
    () => loadConfig({}, { REF_REQUEST_TIMEOUT_MS: '1000', REF_HEADERS_TIMEOUT_MS: '2000' }),
    /at most REF_REQUEST_TIMEOUT_MS/,
  );
});
