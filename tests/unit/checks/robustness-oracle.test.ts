/**
 * The robustness oracle (checks/robustness-oracle.ts): a body that is not the message is refused; a
 * form some readings take as the message (RFC 8259 §9 extensions, ISO's capitalisation of the root,
 * a second top-level member) may be either, never a 5xx.
 * Run: node --import tsx --test tests/unit/checks/robustness-oracle.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestRecord } from '../../../checks/host';
import { Verdicts } from '../../../checks/verdicts';
import type { Profile } from '../../../profile/profile';
import type { Exchange } from '../../../transport/http';
import { judgeUnusualBody, rulesOfCase, titleOfCase, type UnusualBody } from '../../../checks/robustness-oracle';
import { robustnessCases } from '../../../cases/robustness-cases';

const profile = { expectations: { assumptions: 'enforce' } } as unknown as Profile;
const verdicts = (tags: string[]): Verdicts =>
  new Verdicts(
    profile,
    { tags, titlePath: ['x.spec.ts', 'x'], file: '/x.spec.ts', line: 1, column: 1, annotations: [] } as TestRecord,
    true,
  );
const answer = (status: number): Exchange =>
  ({
    request: { url: 'https://bank.example/pacs008' },
    response: { status, text: '', headers: {} },
  }) as unknown as Exchange;

const lenient: UnusualBody = { name: 'two JSON documents back to back', kind: 'lenient', refusal: 'malformed' };

test('a lenient form: taken (read back) or refused, never a 5xx; it cites ROB-03 alone', () => {
  assert.deepEqual(rulesOfCase(lenient), ['ROB-03']);
  assert.equal(titleOfCase(lenient), 'never a 5xx: two JSON documents back to back');
  assert.equal(judgeUnusualBody(verdicts(['@ROB-03']), profile, lenient, answer(201), 'POST pacs008'), true);
  assert.equal(judgeUnusualBody(verdicts(['@ROB-03']), profile, lenient, answer(400), 'POST pacs008'), false);
  assert.throws(() => judgeUnusualBody(verdicts(['@ROB-03']), profile, lenient, answer(500), 'POST pacs008'));
});

test('a body that is not the message is refused: a 2xx fails ROB-01', () => {
  const truncated = robustnessCases.find((c) => c.name === 'truncated JSON')!;
  assert.equal(titleOfCase(truncated), 'refuses: truncated JSON');
  assert.throws(() => judgeUnusualBody(verdicts(['@ROB-01']), profile, truncated, answer(201), 'POST pacs008'));
});

test('the lenient cases build the message a lenient reader takes', () => {
  const valid = JSON.stringify({ fitoFICstmrCdtTrf: { grpHdr: { msgId: 'm-1' } } });
  const body = (name: string): string =>
    String(robustnessCases.find((c) => c.name === name)!.body(valid, 'fitoFICstmrCdtTrf'));
  assert.deepEqual(JSON.parse(body('the root under ISO 20022’s capitalisation (FIToFI…)')), {
    FIToFICstmrCdtTrf: { grpHdr: { msgId: 'm-1' } },
  });
  assert.deepEqual(Object.keys(JSON.parse(body('a second root element next to the message'))), [
    'fitoFICstmrCdtTrf',
    'fitoFIPmtStsRpt',
  ]);
  assert.equal(body('two JSON documents back to back'), valid + valid);
});
