/**
 * Discovery reads how long the target takes to settle off its own exchanges, and `--write` raises
 * polling.timeoutMs (STS-18) to what a run needs, never lowers it (engines/discovery/settlement.ts).
 * Run: node --import tsx --test tests/unit/engines/discovery-settlement.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Exchange } from '../../../transport/http';
import { measureSettlement, neededTimeoutMs, settlementVerdict } from '../../../engines/discovery/settlement';

const T0 = Date.parse('2026-12-04T10:00:00.000Z');

function exchange(method: string, path: string, atMs: number, status: number, json: unknown): Exchange {
  return {
    label: `${method} ${path}`,
    request: { method, url: `http://127.0.0.1:1${path}`, headers: {} },
    response: { status, headers: {}, json, body: JSON.stringify(json) },
    startedAt: new Date(T0 + atMs).toISOString(),
    durationMs: 0,
    retries: [],
  } as unknown as Exchange;
}

const report = (txSts: string) => ({ fitoFIPmtStsRpt: { txInfAndSts: [{ txSts }] } });
const ID = ['paymentsServiceId'];

test('the longest settlement runs from the answer that named the id to its first final read', () => {
  const sent = [
    exchange('POST', '/payments/pacs008/v10', 0, 201, { data: { paymentsServiceId: 'a' } }),
    exchange('POST', '/payments/pacs008/v10', 1_000, 201, { data: { paymentsServiceId: 'b' } }),
    exchange('GET', '/payments/pacs002/v12/a', 500, 200, report('PDNG')),
    exchange('GET', '/payments/pacs002/v12/a', 3_000, 200, report('ACSC')),
    exchange('GET', '/payments/pacs002/v12/a', 9_000, 200, report('ACCC')),
    exchange('GET', '/payments/pacs002/v12/b', 8_000, 200, report('RJCT')),
    // An id no accepted POST named, and a refused POST, are no settlement.
    exchange('GET', '/payments/pacs002/v12/c', 9_500, 200, report('ACCC')),
    exchange('POST', '/payments/pacs008/v10', 2_000, 400, { data: { paymentsServiceId: 'd' } }),
    exchange('GET', '/payments/pacs002/v12/d', 9_600, 200, report('ACCC')),
  ];
  assert.deepEqual(measureSettlement(sent, ID), { followed: 2, longestMs: 7_000 });
});

test('a status still pending at discovery’s last read is no measurement', () => {
  const sent = [
    exchange('POST', '/payments/pacs008/v10', 0, 201, { data: { paymentsServiceId: 'a' } }),
    exchange('GET', '/payments/pacs002/v12/a', 500, 200, report('PDNG')),
  ];
  assert.deepEqual(measureSettlement(sent, ID), { followed: 0 });
  assert.match(settlementVerdict({ polling: { timeoutMs: 10_000 } }, { followed: 0 }).lines[0]!, /kept/);
});

test('--write raises polling.timeoutMs to what a run needs, and keeps a longer one', () => {
  assert.equal(neededTimeoutMs(7_000), 16_000);
  const raised = settlementVerdict({ polling: { timeoutMs: 10_000 } }, { followed: 2, longestMs: 7_000 });
  assert.equal(raised.adopt, 16_000);
  assert.match(
    raised.lines.join('\n'),
    /polling\.timeoutMs {2}profile 10000, shorter than the 16000 a run needs \(STS-18\)/,
  );
  const kept = settlementVerdict({ polling: { timeoutMs: 10_000 } }, { followed: 5, longestMs: 400 });
  assert.equal(kept.adopt, undefined);
  assert.match(kept.lines.join('\n'), /✓ polling\.timeoutMs {2}profile 10000/);
});
