/**
 * Every assumption the suite checks can be stated, observed and remedied: the ledger's
 * assumption rules, the profile schema, discovery's choices and every remedy a skip prints are held
 * together here, so removing any one of them fails a test naming what is missing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rules } from '../../../ledger/rules';
import { assumptionChoices, choices, type Choice } from '../../../engines/discovery/choices';
import { CAPABILITY_WORDS, whatToGrant, type Capability } from '../../../ledger/capabilities';
import { profileSchema } from '../../../profile/profile-schema';

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  patternProperties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
}

/** Whether the profile schema has a field at this dotted path (any branch of a union will do). */
function schemaAccepts(node: SchemaNode, segments: readonly string[]): boolean {
  if (segments.length === 0) return true;
  if ([...(node.anyOf ?? []), ...(node.oneOf ?? [])].some((branch) => schemaAccepts(branch, segments))) return true;
  const [head, ...rest] = segments;
  const property = node.properties?.[head!];
  if (property) return schemaAccepts(property, rest);
  if (typeof node.additionalProperties === 'object') return schemaAccepts(node.additionalProperties, rest);
  return Object.values(node.patternProperties ?? {}).some((p) => schemaAccepts(p, rest));
}
const isProfileField = (field: string): boolean =>
  schemaAccepts(profileSchema as unknown as SchemaNode, field.split('.'));

const assumptionRules = rules.filter((r) => r.level === 'assumption' && !r.retired);
const fieldsOf = (rule: (typeof rules)[number]): string[] => (rule.profileField ?? '').split(/,\s*/).filter(Boolean);

test('every assumption rule names the profile fields that state it, and the loader accepts each', () => {
  for (const rule of assumptionRules) {
    const fields = fieldsOf(rule);
    assert.ok(fields.length > 0, `${rule.id} is an assumption with no profileField: a profile could not state it`);
    for (const field of fields)
      assert.ok(
        isProfileField(field),
        `${rule.id} names ${field}, which the profile schema (profile/profile-schema.ts) does not accept`,
      );
  }
});

test('every assumption rule is observed by discovery through its own field, or says why not', () => {
  for (const rule of assumptionRules) {
    const answer = assumptionChoices[rule.id];
    assert.ok(answer, `${rule.id} has no entry in engines/discovery/choices.ts assumptionChoices`);
    if (!Array.isArray(answer)) {
      assert.ok((answer as { notProbed: string }).notProbed.length > 20, `${rule.id}: say why discovery cannot ask`);
      continue;
    }
    for (const key of answer as readonly (keyof typeof choices)[]) {
      const choice: Choice = choices[key];
      assert.ok(
        choice.field,
        `${rule.id}: discovery's answer ${key} has no profile field, so it can be shown but never adopted`,
      );
      assert.ok(
        fieldsOf(rule).some((field) => choice.field === field || choice.field!.startsWith(`${field}.`)),
        `${rule.id}: discovery's answer ${key} writes ${choice.field}, which is not a field the rule names (${fieldsOf(rule).join(', ')})`,
      );
    }
  }
});

test('every answer discovery observes is adopted into a field the loader accepts', () => {
  for (const [key, choice] of Object.entries(choices) as [string, Choice][]) {
    assert.ok(choice.field, `${key}: an answer with no profile field`);
    assert.ok(isProfileField(choice.field!), `${key} writes ${choice.field}, which the profile schema does not accept`);
  }
});

test('every remedy a skip prints names only fields the loader accepts', () => {
  const named = (text: string): string[] =>
    [
      ...text.matchAll(
        /\b((?:target|expectations|messages|capabilities|slowLane|polling|concurrency|exploration|liveLimits)\.[\w.]+)/g,
      ),
    ].map((m) => m[1]!.replace(/\.$/, ''));
  const remedies = [
    ...assumptionRules.map((r) => `set ${r.profileField} in the profile`),
    ...(Object.keys(CAPABILITY_WORDS) as Capability[]).flatMap((capability) =>
      rules.map((r) => whatToGrant(capability, r.id)),
    ),
  ];
  for (const text of remedies)
    for (const field of named(text))
      assert.ok(
        isProfileField(field),
        `a printed remedy names ${field}, which the profile schema does not accept: "${text}"`,
      );
});

test('the schema walk itself tells a field from a typo', () => {
  assert.equal(isProfileField('expectations.refusalStatus.sca'), true);
  assert.equal(isProfileField('messages.incomingPayment.root'), true);
  assert.equal(isProfileField('expectations.notification'), false);
  assert.equal(isProfileField('expectations.acceptedStatus'), false);
});
