/**
 * Unit checks of the rule ledger and of its link to the reference's fault catalogue. Run with
 * `node --import tsx --test tests/unit/ledger/ledger.test.ts` (Playwright ignores tests/unit).
 *
 * This file imports reference/faults.ts on purpose: it checks the mutation tooling (every fault must
 * break a rule the ledger has), never the service's behaviour, so it is not a conformance test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rules, ruleById } from '../../../ledger/rules';
import { faultCatalogue } from '../../../reference/faults';
import { checkLedger, listTests, sharedTitles } from '../../../scripts/ledger-check';
import { isOperation, OPERATION_FLOWS, OPERATION_LABELS } from '../../../ledger/operations';
import { readFileSync } from 'node:fs';
import { SPEC_FILE } from '../../../record/spec-html';

const ID = /^[A-Z][A-Z0-9]*-\d{2,}$/;
const FLOWS = new Set([
  'auth',
  'access',
  'payment',
  'status',
  'incoming',
  'cancellation',
  'return',
  'refund',
  'money',
  'robustness',
]);

test('ledger IDs are unique', () => {
  const seen = new Map<string, number>();
  for (const r of rules) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  assert.deepEqual(duplicates, [], `duplicate rule IDs: ${duplicates.join(', ')}`);
  assert.equal(ruleById.size, rules.length);
});

test('ledger IDs are well formed (PREFIX-NN) and match the tag pattern the fixtures read', () => {
  const bad = rules.filter((r) => !ID.test(r.id) || !/^@[A-Z0-9]+-\d+$/.test(`@${r.id}`)).map((r) => r.id);
  assert.deepEqual(bad, []);
});

test('every rule has a section, a level, a flow, a statement and the operations it governs', () => {
  for (const r of rules) {
    assert.match(r.section, /§\d/, `${r.id}: section must cite the spec (§n)`);
    assert.ok(r.level === 'documented' || r.level === 'assumption', `${r.id}: level`);
    assert.ok(FLOWS.has(r.flow), `${r.id}: flow ${r.flow}`);
    assert.ok(r.statement.trim().length > 10, `${r.id}: statement`);
    assert.match(r.statement, /[.)]$/, `${r.id}: statement is a sentence`);
    assert.ok(r.operations.length > 0 && r.operations.every((op) => isOperation(op)), `${r.id}: operations`);
    if (r.level === 'assumption' && !r.retired)
      assert.ok(r.profileField, `${r.id}: an assumption names the profile field that states it`);
  }
});

test('IDs of one prefix are numbered in order (append only, never renumbered)', () => {
  const last = new Map<string, number>();
  for (const r of rules) {
    const [prefix, n] = [r.id.replace(/-\d+$/, ''), Number(r.id.replace(/^.*-/, ''))];
    const before = last.get(prefix) ?? 0;
    assert.ok(
      n > before,
      `${r.id} comes after ${prefix}-${String(before).padStart(2, '0')}: new IDs are appended with the next number`,
    );
    last.set(prefix, n);
  }
});

test('every fault of reference/faults.ts names an existing, live ledger rule', () => {
  const missing = faultCatalogue.filter((f) => !ruleById.has(f.rule)).map((f) => `${f.name} → ${f.rule}`);
  assert.deepEqual(missing, [], `faults naming rules the ledger does not have: ${missing.join(', ')}`);
  const retired = faultCatalogue.filter((f) => ruleById.get(f.rule)?.retired).map((f) => `${f.name} → ${f.rule}`);
  assert.deepEqual(retired, [], `faults naming retired rules: ${retired.join(', ')}`);
});

test('fault names are unique and each fault has a description', () => {
  const names = faultCatalogue.map((f) => f.name);
  assert.equal(new Set(names).size, names.length);
  for (const f of faultCatalogue) assert.ok(f.description.trim().length > 0, `${f.name}: description`);
});

test('ledger check: an unknown cited ID fails, uncited documented rules are listed, --strict fails on them', () => {
  const first = rules.find((r) => r.level === 'documented' && !r.retired)!;
  const ok = checkLedger([{ title: 't1', ruleIds: [first.id] }]);
  assert.equal(ok.ok, true);
  assert.ok(!ok.uncitedDocumented.some((r) => r.id === first.id));
  assert.ok(ok.uncitedDocumented.length > 0);
  assert.equal(checkLedger([{ title: 't1', ruleIds: [first.id] }], { strict: true }).ok, false);

  const bad = checkLedger([{ title: 't2', ruleIds: ['NOPE-99'] }]);
  assert.equal(bad.ok, false);
  assert.deepEqual(bad.unknown, [{ id: 'NOPE-99', tests: ['t2'] }]);

  const all = checkLedger(
    rules.map((r) => ({ title: r.id, ruleIds: [r.id], operations: [...r.operations] })),
    { strict: true },
  );
  assert.equal(all.ok, true);
  assert.equal(all.uncitedDocumented.length, 0);
  assert.equal(all.uncoveredPairs.length, 0);
});

test('ledger check: a rule of several operations is covered only on the operations its tests name', () => {
  const multi = rules.find((r) => r.operations.length > 1 && !r.retired)!;
  const one = checkLedger([{ title: 't', ruleIds: [multi.id], operations: [multi.operations[0]!] }]);
  assert.deepEqual(
    one.uncoveredPairs.filter((p) => p.rule === multi.id).map((p) => p.operation),
    multi.operations.slice(1),
  );
  const unplaced = checkLedger([{ title: 't', ruleIds: [multi.id] }]);
  assert.deepEqual(unplaced.unplaced, [{ rule: multi.id, test: 't' }]);
});

test('ledger check: two tests under one operation of the report with one title fail it, naming both', () => {
  const listed = [
    {
      title: 'a.spec.ts › paymentStatus: access › refuses: x',
      name: 'refuses: x',
      ruleIds: ['AT-04'],
      reportOperation: 'paymentStatus' as const,
    },
    {
      title: 'b.spec.ts › status › refuses: x',
      name: 'refuses: x',
      ruleIds: ['AT-04'],
      reportOperation: 'paymentStatus' as const,
    },
    {
      title: 'a.spec.ts › refund: access › refuses: x',
      name: 'refuses: x',
      ruleIds: ['AT-04'],
      reportOperation: 'refund' as const,
    },
  ];
  const result = checkLedger(listed);
  assert.equal(result.ok, false);
  assert.deepEqual(result.sameTitle, [
    { operation: 'paymentStatus', name: 'refuses: x', tests: [listed[0]!.title, listed[1]!.title] },
  ]);
  assert.deepEqual(sharedTitles(listed.slice(1)), [], 'one title under two operations is told apart by the tree');
});

test('every listed test has a title of its own under its operation of the report, and an operation', () => {
  const listed = listTests(['local', 'local-sandbox-like']);
  assert.ok(listed.length > 500, `${listed.length} tests listed`);
  assert.deepEqual(sharedTitles(listed), []);
  assert.deepEqual(
    listed.filter((t) => t.reportOperation === undefined).map((t) => t.title),
    [],
    'tests the report would file under no operation',
  );
});

test('the report files each operation under its flow of spec §1: the flow table names the flow and the operation', () => {
  const spec = readFileSync(SPEC_FILE, 'utf8');
  const table = spec.slice(spec.indexOf('| Flow |'), spec.indexOf('\n\n', spec.indexOf('| Flow |')));
  const rows = table.split('\n').map((row) => row.split('|').map((c) => c.trim()));
  for (const [op, flow] of Object.entries(OPERATION_FLOWS)) {
    // §1 keeps the token endpoint and the pacs.002 status read outside the five flows.
    if (op === 'token' || op === 'paymentStatus') continue;
    const row = rows.find((r) => r[1] === flow);
    assert.ok(row, `${flow} is a flow of the §1 table`);
    const operation = OPERATION_LABELS[op as keyof typeof OPERATION_LABELS].replace(/ \(incoming\)$/, '');
    assert.ok(
      row!.at(-2)!.includes(operation.replace('{id}', '{paymentsServiceId}')),
      `${op}: ${operation} in ${row!.at(-2)}`,
    );
  }
});
