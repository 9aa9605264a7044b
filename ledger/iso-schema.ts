/**
 * Which documented rules a hub's ISO 20022 schema validation already enforces (the XSD refuses every
 * negative case of the rule), enforces in part (some), or leaves to its business validation (beyond
 * the schema: none, or a rule no message of the suite breaks, such as a header's or a flow's). A bank
 * reads at a glance which refusals its hub gives for free. The marks are computed from the case
 * tables by tools/iso-schema-marks.ts, kept in iso-schema-marks.json, and checked against them by
 * tests/unit/ledger/iso-schema.test.ts.
 */
import marks from './iso-schema-marks.json';
import type { Rule } from './rules';

export type SchemaMark = 'schema' | 'partly' | 'beyond';

const marked = marks as Readonly<Record<string, SchemaMark>>;

/** A documented rule's mark; an assumption has none. */
export function schemaMarkOf(rule: Pick<Rule, 'id' | 'level'>): SchemaMark | undefined {
  return rule.level === 'documented' ? (marked[rule.id] ?? 'beyond') : undefined;
}

export const SCHEMA_MARK_WORDS: Readonly<Record<SchemaMark, string>> = {
  schema: 'enforced by the ISO 20022 schema',
  partly: 'partly enforced by the ISO 20022 schema',
  beyond: 'beyond the ISO 20022 schema',
};

/** "of 153 documented rules, 8 are enforced by the XSD itself …, 35 partly, 110 need business validation beyond it". */
export function describeSchemaMarks(rules: readonly Rule[]): string {
  const documented = rules.filter((r) => !r.retired && r.level === 'documented');
  const count = (mark: SchemaMark): number => documented.filter((r) => schemaMarkOf(r) === mark).length;
  return `of ${documented.length} documented rules, ${count('schema')} are enforced by the XSD itself (a hub that validates against it refuses every case of them), ${count('partly')} partly, ${count('beyond')} need business validation beyond it`;
}
