/**
 * Which documented rules a hub's ISO 20022 schema validation enforces: every negative case of the
 * rule's message tables (cases/pacs008-cases.ts, cases/pacs004-cases.ts), its valid twin mutated once,
 * held to the version's XSD. A rule whose every case the XSD refuses is enforced by the schema, one
 * with some refused partly, every other beyond it (the hub's business validation has to refuse it).
 * ledger/iso-schema.ts keeps the result; tests/unit/ledger/iso-schema.test.ts recomputes it, and
 * `node --import tsx tools/iso-schema-marks.ts --write` rewrites that file.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadIsoSchemas, type IsoSchemas } from '../messages/iso20022/validate';
import { pacs008Cases } from '../cases/pacs008-cases';
import { returnCases } from '../cases/pacs004-cases';
import { applyEdits } from '../cases/field-rows';
import { buildPacs008 } from '../messages/pacs008';
import { buildPacs004 } from '../messages/pacs004';
import type { SchemaMark } from '../ledger/iso-schema';

/** Per rule: how many of its negative cases there are, and which of them the XSD accepts. */
export type CaseTally = Map<string, { cases: number; acceptedByXsd: string[] }>;

/** Every message case of the two tables, by rule, held to the XSD (pacs.008 to both versions the paths name). */
export function tallyCases(iso: IsoSchemas): CaseTally {
  const tally: CaseTally = new Map();
  const count = (rules: readonly string[], refused: boolean, name: string): void => {
    for (const rule of rules) {
      const entry = tally.get(rule) ?? { cases: 0, acceptedByXsd: [] };
      entry.cases++;
      if (!refused) entry.acceptedByXsd.push(name);
      tally.set(rule, entry);
    }
  };
  for (const c of pacs008Cases) {
    const mutant = applyEdits(structuredClone(buildPacs008({ seed: 'marks', ...c.base })), c.edits);
    const refused = ['pacs.008.001.08', 'pacs.008.001.10'].every(
      (version) => !iso.validate(version as 'pacs.008.001.08', mutant).valid,
    );
    count(c.rules, refused, c.name);
  }
  for (const c of returnCases) {
    if (c.outcome === 'accepted' || !c.edits?.length) continue;
    const twin = buildPacs004({ seed: 'marks', original: buildPacs008({ seed: 'marks' }), ...(c.twin ?? {}) });
    count(
      c.rules,
      !iso.validate('pacs.004.001.09', applyEdits(structuredClone(twin), c.edits, { twin })).valid,
      c.name,
    );
  }
  return tally;
}

/** The marks of every rule with a message case that is not beyond the schema, in ledger order. */
export function schemaMarks(tally: CaseTally): Record<string, SchemaMark> {
  const marks: Record<string, SchemaMark> = {};
  for (const [rule, { cases, acceptedByXsd }] of [...tally].sort(([a], [b]) =>
    a.localeCompare(b, 'en', { numeric: true }),
  ))
    if (acceptedByXsd.length < cases) marks[rule] = acceptedByXsd.length ? 'partly' : 'schema';
  return marks;
}

export const MARKS_FILE = path.resolve(__dirname, '..', 'ledger', 'iso-schema-marks.json');

if (require.main === module && process.argv.includes('--write')) {
  void loadIsoSchemas().then((iso) => {
    writeFileSync(MARKS_FILE, `${JSON.stringify(schemaMarks(tallyCases(iso)), null, 2)}\n`);
    console.log(`written ${path.relative(process.cwd(), MARKS_FILE)}`);
  });
}
