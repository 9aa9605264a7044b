/**
 * The ledger's ISO 20022 schema marks (ledger/iso-schema.ts) are what the case tables show: each
 * documented rule's negative message cases held to their XSD again (tools/iso-schema-marks.ts).
 *
 * Run: node --import tsx --test tests/unit/ledger/iso-schema.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadIsoSchemas } from '../../../messages/iso20022/validate';
import { MARKS_FILE, schemaMarks, tallyCases } from '../../../tools/iso-schema-marks';
import { schemaMarkOf } from '../../../ledger/iso-schema';
import { rules } from '../../../ledger/rules';
import { pacs008Cases } from '../../../cases/pacs008-cases';
import { returnCases } from '../../../cases/pacs004-cases';
import { buildPacs004 } from '../../../messages/pacs004';
import { applyEdits } from '../../../cases/field-rows';
import { buildPacs008 } from '../../../messages/pacs008';

test('each mark is what the rule’s cases show against the XSD (else: node --import tsx tools/iso-schema-marks.ts --write)', async () => {
  const computed = schemaMarks(tallyCases(await loadIsoSchemas()));
  assert.deepEqual(JSON.parse(readFileSync(MARKS_FILE, 'utf8')), computed);
});

test('every documented rule has a mark; assumptions have none; marked rules are in the ledger', () => {
  for (const rule of rules) {
    if (rule.level === 'documented') assert.ok(schemaMarkOf(rule), rule.id);
    else assert.equal(schemaMarkOf(rule), undefined, rule.id);
  }
  const ids = new Set(rules.map((r) => r.id));
  for (const id of Object.keys(JSON.parse(readFileSync(MARKS_FILE, 'utf8')))) assert.ok(ids.has(id), id);
});

test('a schema that refuses a missing required element marks its rule; a business rule stays beyond', () => {
  assert.equal(schemaMarkOf({ id: 'P8-11', level: 'documented' }), 'schema');
  assert.equal(schemaMarkOf({ id: 'RTR-33', level: 'documented' }), 'beyond');
  assert.equal(schemaMarkOf({ id: 'SCA-09', level: 'documented' }), 'beyond');
});

test('a pacs.008 value the table excludes, a removed field or a wrong type is judged either way (a 4xx, or rejected by status), whether ISO’s XSD takes it or not', async () => {
  const iso = await loadIsoSchemas();
  const valid = (c: (typeof pacs008Cases)[number]): boolean => {
    const mutant = applyEdits(structuredClone(buildPacs008({ seed: 'either', ...c.base })), c.edits);
    return ['pacs.008.001.08', 'pacs.008.001.10'].every((v) => iso.validate(v as 'pacs.008.001.08', mutant).valid);
  };
  const oracleOf = (name: string) => {
    const c = pacs008Cases.find((x) => x.name === name);
    assert.ok(c, name);
    return { oracle: c.oracle, valid: valid(c) };
  };
  // A server that checks sttlmMtd === 'CLRG' in its business layer rejects clrg as it rejects INDA (§7).
  assert.deepEqual(oracleOf('grpHdr.sttlmInf.sttlmMtd is clrg (lower case)'), { oracle: 'either', valid: false });
  assert.deepEqual(oracleOf('grpHdr.sttlmInf.sttlmMtd is INDA'), { oracle: 'either', valid: true });
  assert.deepEqual(oracleOf('cdtTrfTxInf.0.chrgBr is slev (lower case)'), { oracle: 'either', valid: false });
  assert.deepEqual(oracleOf('cdtTrfTxInf.0.chrgBr removed'), { oracle: 'either', valid: false });
  assert.deepEqual(oracleOf('cdtTrfTxInf.0.chrgBr is an object'), { oracle: 'either', valid: false });
  assert.ok(pacs008Cases.filter((c) => c.oracle === 'either').length >= 11);
});

test('a pacs.004 field case is judged either way (§4.4 shows no answer of POST pacs004); only its SCA is refused at once; a value marked ISO-allowed is one the XSD takes', async () => {
  const iso = await loadIsoSchemas();
  for (const c of returnCases) {
    if (c.outcome === 'refused') assert.ok(c.submit && !c.edits?.length, `${c.name}: a refusal at once is the SCA's`);
    if (c.edits?.length && c.outcome !== 'accepted' && c.outcome !== 'reading' && c.outcome !== 'businessRefusal')
      assert.equal(c.outcome, 'either', c.name);
  }
  const marked = returnCases.filter((c) => c.isoAllows);
  assert.ok(marked.length >= 20, `${marked.length} cases`);
  for (const c of marked) {
    const twin = buildPacs004({ seed: 'either', original: buildPacs008({ seed: 'either' }), ...(c.twin ?? {}) });
    const mutant = applyEdits(structuredClone(twin), c.edits ?? [], { twin });
    assert.ok(iso.validate('pacs.004.001.09', mutant).valid, `${c.name}: marked ISO-allowed, but ISO's XSD refuses it`);
  }
});
