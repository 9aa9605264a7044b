/**
 * Item "compare ignores the suite's own probe members": an incoming payment read that serves back what
 * a robustness probe sent (suiteExtra, suiteTwice, constructor.prototype.polluted, __proto__…) is not
 * the provider's response schema drifting. The names come from their one home, the robustness catalogue.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, fieldTypes, type RunData } from '../../../scripts/compare';
import { PROBE_MEMBER, PROBE_MEMBER_NAMES, robustnessCases } from '../../../cases/robustness-cases';

const read = (message: Record<string, unknown>): RunData => ({
  source: 'run',
  projects: ['sandbox'],
  tests: [],
  transcript: [
    {
      project: 'sandbox',
      test: 'reads',
      label: 'read incoming',
      startedAt: '1',
      request: { method: 'GET', url: 'https://h/payments/pacs008/v08/abc' },
      response: { status: 200, body: JSON.stringify({ fitoFICstmrCdtTrf: message }) },
    },
  ],
});

test('probe members served back by a target are not response schema drift; a member of the target is', () => {
  const plain = { grpHdr: { msgId: 'M1' } };
  // What the QA engineer saw: the probes' members in the next night's reads of incoming payments.
  const withProbes = JSON.parse(
    `{"grpHdr":{"msgId":"M2"},"${PROBE_MEMBER.extra}":"not defined by the spec","${PROBE_MEMBER.twice}":"a","${PROBE_MEMBER.constructorKey}":{"prototype":{"polluted":true}},"${PROBE_MEMBER.proto}":{"isAdmin":true},"${PROBE_MEMBER.deep}":{"a":{"a":1}},"${PROBE_MEMBER.huge}":1e400}`,
  ) as Record<string, unknown>;
  assert.deepEqual(compareRuns(read(plain), read(withProbes)).drift, []);
  const realChange = compareRuns(read(plain), read({ ...withProbes, rmtInf: { ustrd: 'x' } })).drift;
  assert.deepEqual(
    realChange.flatMap((d) => d.added.map((a) => a.path)),
    ['$.fitoFICstmrCdtTrf.rmtInf', '$.fitoFICstmrCdtTrf.rmtInf.ustrd'],
  );
});

test('every member the robustness probes add to a message is in the one list compare reads', () => {
  // Apply each probe to a message and collect the members it added beside the documented ones.
  const valid = JSON.stringify({ fitoFICstmrCdtTrf: { grpHdr: { msgId: 'M1' } } });
  const added = new Set<string>();
  for (const c of robustnessCases.filter((r) => r.kind === 'extra')) {
    const body = c.body(valid, 'fitoFICstmrCdtTrf');
    let json: unknown;
    try {
      json = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    } catch {
      continue; // not JSON a target could serve back (invalid UTF-8, UTF-16)
    }
    for (const p of fieldTypes(json, new Map(), '$').keys())
      if (!/^\$(\.fitoFICstmrCdtTrf(\.grpHdr(\.msgId)?)?)?$/.test(p)) added.add(p);
  }
  assert.deepEqual([...added], [], 'a probe adds a member compare would report as drift');
  assert.ok(['suiteExtra', 'suiteTwice', 'constructor', '__proto__'].every((n) => PROBE_MEMBER_NAMES.has(n)));
});
