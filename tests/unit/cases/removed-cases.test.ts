/**
 * "Removed" cases only for what is required: a case table removes a field only where the spec's
 * table marks it (or a member under it) required, or, where the spec is silent, where the ISO 20022
 * definition of that message version requires it (minOccurs 1 in its parent). A shape the spec gives
 * ("nm (string)") says what type a present member has, not that it is present.
 *
 * Run: node --import tsx --test tests/unit/cases/removed-cases.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pacs008Cases, pacs008FieldRules } from '../../../cases/pacs008-cases';
import { returnRows } from '../../../cases/pacs004-cases';
import { SPEC_FILE } from '../../../record/spec-html';
import { loadIsoSchemas, type IsoSchemas } from '../../../messages/iso20022/validate';
import type { IsoMessage } from '../../../messages/iso20022/versions';

/** The paths a section's field table marks required, written from the root ("cdtTrfTxInf.dbtr, .dbtrAcct" is two). */
function requiredBySpec(section: string): string[] {
  const spec = readFileSync(SPEC_FILE, 'utf8');
  const start = spec.indexOf(`### ${section} `);
  const body = spec.slice(start, spec.indexOf('\n### ', start + 1));
  return body
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells[3] === 'required')
    .flatMap((cells) => {
      const [first = '', ...rest] = (cells[1] ?? '').split(',').map((p) => p.trim());
      const prefix = first.slice(0, first.lastIndexOf('.'));
      return [first, ...rest.map((p) => (p.startsWith('.') ? prefix + p : p))].map((p) => p.replaceAll('[]', ''));
    });
}

const plain = (path: string): string =>
  path
    .split('.')
    .filter((s) => !/^\d+$/.test(s))
    .join('.');

function justified(
  path: string,
  bySpec: readonly string[],
  iso: IsoSchemas,
  message: IsoMessage,
  root: string,
): boolean {
  const p = plain(path);
  if (bySpec.some((required) => required === p || required.startsWith(`${p}.`))) return true;
  return iso.requires(message, `${root}.${p}`) === true;
}

test('every pacs.008 field a case removes is required by §2.2’s table or by pacs.008.001.08’s XSD', async () => {
  const iso = await loadIsoSchemas();
  const bySpec = requiredBySpec('2.2');
  assert.ok(bySpec.includes('grpHdr.msgId') && bySpec.includes('cdtTrfTxInf.dbtrAcct'), bySpec.join(', '));
  for (const row of pacs008FieldRules.filter((r) => r.required))
    assert.ok(
      justified(row.path, bySpec, iso, 'pacs.008.001.08', 'fitoFICstmrCdtTrf'),
      `${row.path} is removed, but neither §2.2 nor ISO requires it`,
    );
});

test('a pacs.008 removal or wrong type is refused either way (4xx, or a status that ends rejected), ISO-optional or not; only a body with no message root is a 4xx alone', () => {
  for (const c of pacs008Cases)
    assert.equal(c.oracle === 'validation', c.rules.includes('P8-06'), `${c.name}: ${c.oracle}`);
  const removal = (path: string) => pacs008Cases.find((c) => c.field === path && c.name.endsWith(' removed'));
  assert.equal(removal('cdtTrfTxInf.0.pmtId.txId')?.oracle, 'either', 'ISO lets it be absent');
  assert.equal(removal('cdtTrfTxInf.0.pmtId.endToEndId')?.oracle, 'either', 'ISO requires it');
});

test('every pacs.004 field a case removes is required by §2.5’s table or by pacs.004.001.09’s XSD', async () => {
  const iso = await loadIsoSchemas();
  const bySpec = requiredBySpec('2.5');
  // A row whose field is required only in its own twin (addtlInf with FOCR) names that case itself.
  for (const row of returnRows.filter((r) => r.required && !r.missingName)) {
    const path = row.path.replace(/^pmtRtr\./, '');
    assert.ok(
      justified(path, bySpec, iso, 'pacs.004.001.09', 'pmtRtr'),
      `${path} is removed, but neither §2.5 nor ISO requires it`,
    );
  }
});

test('a party’s nm is neither: §2.2 gives its type, ISO makes it optional', async () => {
  const iso = await loadIsoSchemas();
  assert.equal(
    justified('cdtTrfTxInf.0.dbtr.nm', requiredBySpec('2.2'), iso, 'pacs.008.001.08', 'fitoFICstmrCdtTrf'),
    false,
  );
  assert.equal(iso.requires('pacs.008.001.08', 'fitoFICstmrCdtTrf.cdtTrfTxInf.dbtrAcct.id.othr.id'), true);
});
