/**
 * Discovery as data (engines/discovery/choices.ts) held to the ledger and the profile schema, and the
 * diff that compares, adopts and reports drift (engines/discovery/diff.ts), on made-up observations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { rules } from '../../../ledger/rules';
import {
  assumptionChoices,
  choices,
  isChoiceKey,
  type Choice,
  type ChoiceKey,
} from '../../../engines/discovery/choices';
import {
  adoptInto,
  changesOf,
  diffAgainst,
  driftOf,
  fixpointProblems,
  formatDiff,
  formatDrift,
  formatFixpoint,
  unmetAnswers,
} from '../../../engines/discovery/diff';
import { setJsonValue } from '../../../messages/json-edit';
import { lookAlikeOf, type Observation } from '../../../engines/discovery/probes';
import { profileSchema } from '../../../profile/profile-schema';
import { parseProfile } from '../../../profile/profile';
import { readsTheTwin, returnTriggers } from '../../../engines/discovery/triggers';
import { returnCases } from '../../../cases/pacs004-cases';

const localText = readFileSync(path.join(__dirname, '..', '..', '..', 'environments', 'local.json'), 'utf8');

/** Whether a dotted path names a field of the profile schema. */
function schemaHas(field: string): boolean {
  let node: unknown = profileSchema;
  for (const part of field.split('.')) {
    node = (node as { properties?: Record<string, unknown> }).properties?.[part];
    if (!node) return false;
  }
  return true;
}

const assumptionRules = rules.filter((r) => r.level === 'assumption' && !r.retired);

test('every assumption rule of the ledger has exactly one discovery entry, and nothing else has one', () => {
  assert.deepEqual(Object.keys(assumptionChoices).sort(), assumptionRules.map((r) => r.id).sort());
});

test('a choice adopted into a profile field is one its rules name; a fixed one is what the rule’s field cannot state', () => {
  for (const rule of assumptionRules) {
    const entry = assumptionChoices[rule.id]!;
    if (!Array.isArray(entry)) continue;
    const named = (rule.profileField ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const key of entry as ChoiceKey[]) {
      const choice: Choice = choices[key];
      if (choice.field) {
        assert.ok(
          named.some((n) => choice.field === n || choice.field!.startsWith(`${n}.`)),
          `${rule.id} names ${named.join(', ')}, not ${choice.field} (choice ${key})`,
        );
        assert.ok(schemaHas(choice.field), `${choice.field} (choice ${key}) is a profile field`);
        assert.ok(choice.holds, `${key} says how its field holds an answer`);
      } else {
        assert.ok(choice.suiteExpects, `${key} says what the suite expects`);
        // expectations.assumptions (P8-30) is the enforce/report switch, not a field stating an answer.
        assert.ok(
          !named.some((n) => n !== 'expectations.assumptions' && schemaHas(n)),
          `${rule.id} names the profile field ${named.join(', ')}: ${key} should adopt into it`,
        );
      }
    }
  }
});

test('every choice answers some rule', () => {
  const used = new Set(Object.values(assumptionChoices).flatMap((e) => (Array.isArray(e) ? (e as ChoiceKey[]) : [])));
  for (const key of Object.keys(choices)) assert.ok(isChoiceKey(key) && used.has(key), `choice ${key} answers no rule`);
});

const saw = (key: ChoiceKey, observed: string | number): Observation => ({ key, observed });

test('the diff: agrees, narrower, differs, unobserved; several answers of one field', () => {
  const profile = JSON.parse(localText) as unknown;
  const diff = diffAgainst(profile, [
    saw('refusalStatus.sca', 401),
    saw('refusalStatus.business', 400),
    saw('refusalStatus.business', 409),
    saw('statusCodes.pending', 'PDNG'),
    saw('businessRejection', 'http'),
    saw('businessRejection', 'status'),
    saw('extraInput', 'refuse'),
    saw('messages.refund.root', 'fitoFIPmtRvsl'),
    saw('repeatBody.pacs008', 'original'),
    saw('repeatBody.pacs007', 'original'),
    { key: 'refusalStatus.tooLarge', unobserved: 'a 2 MiB body was accepted' },
    saw('amountDecimals', 'accept'),
  ]);
  const of = (field: string) => diff.fields.find((f) => f.field === field)!;
  assert.equal(of('expectations.refusalStatus.sca').status, 'agrees');
  assert.deepEqual(
    {
      status: of('expectations.refusalStatus.business').status,
      adopt: of('expectations.refusalStatus.business').adopt,
    },
    { status: 'differs', adopt: [400, 409] },
  );
  assert.deepEqual(
    { status: of('expectations.statusCodes.pending').status, adopt: of('expectations.statusCodes.pending').adopt },
    { status: 'differs', adopt: ['PDNG'] },
  );
  // http and status: the field can only say "either", and "http" does not admit "status".
  assert.deepEqual(
    { status: of('expectations.businessRejection').status, adopt: of('expectations.businessRejection').adopt },
    { status: 'differs', adopt: 'either' },
  );
  // Not set in local.json: the suite reads "either", which admits "refuse" but allows more.
  assert.deepEqual(
    {
      status: of('expectations.extraInput').status,
      declared: of('expectations.extraInput').declared,
      adopt: of('expectations.extraInput').adopt,
    },
    { status: 'narrower', declared: false, adopt: 'refuse' },
  );
  assert.equal(of('messages.refund.root').status, 'differs');
  assert.equal(of('expectations.repeatBody').status, 'agrees', 'not set, and the suite’s default is what was seen');
  assert.deepEqual(
    { status: of('expectations.refusalStatus.tooLarge').status, why: of('expectations.refusalStatus.tooLarge').why },
    { status: 'unobserved', why: 'a 2 MiB body was accepted' },
  );
  assert.equal(of('expectations.tokenErrors').why, 'no probe answered it');
  assert.deepEqual(
    { status: of('expectations.amountPrecision').status, adopt: of('expectations.amountPrecision').adopt },
    { status: 'differs', adopt: 'accept' },
  );
  assert.match(
    formatDiff(diff, 'local').join('\n'),
    /✖ expectations.amountPrecision +profile "refuse"; observed "accept"/,
  );
});

test('adopting writes every changed field in place, and the profile still loads', () => {
  const diff = diffAgainst(JSON.parse(localText), [
    saw('refusalStatus.sca', 403),
    saw('statusCodes.pending', 'PDNG'),
    saw('messages.refund.root', 'fitoFIPmtRvsl'),
    saw('extraInput', 'accept'),
    saw('expiresIn', 'number'),
  ]);
  assert.deepEqual(
    changesOf(diff).map((f) => f.field),
    [
      'expectations.refusalStatus.sca',
      'expectations.statusCodes.pending',
      'expectations.extraInput',
      'messages.refund.root',
    ],
  );
  const text = adoptInto(localText, diff);
  const profile = parseProfile(JSON.parse(text), 'environments/local.json');
  assert.deepEqual(profile.expectations.refusalStatus.sca, [403]);
  assert.deepEqual(profile.expectations.statusCodes.pending, ['PDNG']);
  assert.equal(profile.expectations.extraInput, 'accept');
  assert.equal(profile.messages.refund.root, 'fitoFIPmtRvsl');
  assert.deepEqual(Object.keys(JSON.parse(text) as object).slice(8, 10), ['expectations', 'messages']);
  // Nothing changes where nothing differs.
  assert.equal(adoptInto(localText, diffAgainst(JSON.parse(localText), [saw('refusalStatus.sca', 401)])), localText);
});

test('drift: only the assumptions that no longer hold, each with its rules', () => {
  const diff = diffAgainst(JSON.parse(localText), [
    saw('refusalStatus.sca', 403),
    saw('errorBody', 'errors'),
    saw('messages.refund.root', 'fitoFIPmtRvsl'),
    saw('extraInput', 'accept'),
  ]);
  const drift = driftOf(diff);
  assert.deepEqual(
    drift.map((f) => f.field),
    ['expectations.refusalStatus.sca', 'messages.refund.root'],
  );
  assert.deepEqual(formatDrift(drift), [
    'DRIFT            expectations.refusalStatus.sca: the profile expects [401], the target answered 403 (SCA-15); adopt it with npm run discover -- --write, or take it up with the provider',
    'DRIFT            messages.refund.root: the profile expects "fIToFIPmtRvsl", the target answered "fitoFIPmtRvsl" (RFD-07); adopt it with npm run discover -- --write, or take it up with the provider',
  ]);
});

// ── every trigger of a class: union, never narrow, the fixpoint ────────────────────────────────────

const drawn = (key: ChoiceKey, observed: string | number, trigger: string): Observation => ({ key, observed, trigger });

test('a class asked with several triggers adopts the union of their answers, and drift names the trigger', () => {
  // A server answering 400 for an hd mismatch and 401 for every other SCA failure: both are conforming.
  const observations = [
    drawn('refusalStatus.sca', 401, 'SCA without kid'),
    drawn('refusalStatus.sca', 400, 'SCA hd of another body'),
    drawn('refusalStatus.sca', 401, 'SCA typ JWS'),
  ];
  const diff = diffAgainst(JSON.parse(localText), observations);
  const sca = diff.fields.find((f) => f.field === 'expectations.refusalStatus.sca')!;
  assert.deepEqual(
    { status: sca.status, adopt: sca.adopt, complete: sca.complete },
    { status: 'differs', adopt: [401, 400], complete: true },
  );
  assert.deepEqual(
    sca.unmet.map((u) => [u.observed, u.trigger]),
    [[400, 'SCA hd of another body']],
  );
  assert.match(
    formatDrift(driftOf(diff))[0]!,
    /the target answered 401, 400; not admitted: 400 for SCA hd of another body \(SCA-15\)/,
  );
  const profile = parseProfile(JSON.parse(adoptInto(localText, diff)), 'environments/local.json');
  assert.deepEqual(profile.expectations.refusalStatus.sca, [401, 400]);
});

test('never narrowed below what was seen: a trigger that did not answer keeps the field, widened only by what was observed', () => {
  const wide = setJsonValue(localText, ['expectations', 'refusalStatus', 'sca'], [401, 403]);
  const missed: Observation = {
    key: 'refusalStatus.sca',
    unobserved: 'the probe failed: the discovery budget of 600 requests is spent',
    trigger: 'SCA typ JWS',
  };
  // Complete: narrowed to exactly what was seen.
  const complete = diffAgainst(JSON.parse(wide), [drawn('refusalStatus.sca', 401, 'SCA without kid')]).fields.find(
    (f) => f.field === 'expectations.refusalStatus.sca',
  )!;
  assert.deepEqual({ status: complete.status, adopt: complete.adopt }, { status: 'narrower', adopt: [401] });
  // One trigger unanswered: the field stays, and the diff says why.
  const partial = diffAgainst(JSON.parse(wide), [
    drawn('refusalStatus.sca', 401, 'SCA without kid'),
    missed,
  ]).fields.find((f) => f.field === 'expectations.refusalStatus.sca')!;
  assert.deepEqual(
    { status: partial.status, adopt: partial.adopt, complete: partial.complete },
    { status: 'agrees', adopt: [401, 403], complete: false },
  );
  assert.match(
    partial.why!,
    /not every trigger answered \(1 did not: SCA typ JWS: the probe failed: .*\), so the field is not narrowed/,
  );
  assert.deepEqual(
    changesOf(diffAgainst(JSON.parse(wide), [drawn('refusalStatus.sca', 401, 'SCA without kid'), missed])),
    [],
  );
  // One trigger unanswered and an answer the field does not admit: widened by it, nothing dropped.
  const widened = diffAgainst(JSON.parse(wide), [
    drawn('refusalStatus.sca', 400, 'SCA hd of another body'),
    missed,
  ]).fields.find((f) => f.field === 'expectations.refusalStatus.sca')!;
  assert.deepEqual({ status: widened.status, adopt: widened.adopt }, { status: 'differs', adopt: [401, 403, 400] });
  // A mode field too: "either" is never narrowed to one answer while a trigger is missing; a live (read-safe) run narrows nothing.
  const mode = diffAgainst(JSON.parse(localText), [
    saw('extraInput', 'refuse'),
    { key: 'extraInput', unobserved: 'HTTP 500' },
  ]).fields.find((f) => f.field === 'expectations.extraInput')!;
  assert.deepEqual({ status: mode.status, adopt: mode.adopt }, { status: 'agrees', adopt: 'either' });
  const live = diffAgainst(
    JSON.parse(wide),
    [drawn('refusalStatus.sca', 401, 'x')],
    'profile live is live: only read-safe probes ran',
  ).fields.find((f) => f.field === 'expectations.refusalStatus.sca')!;
  assert.deepEqual({ status: live.status, adopt: live.adopt }, { status: 'agrees', adopt: [401, 403] });
  // Nothing observed: the field stays as it was, with why.
  const unseen = diffAgainst(JSON.parse(wide), [missed]).fields.find(
    (f) => f.field === 'expectations.refusalStatus.sca',
  )!;
  assert.deepEqual(
    { status: unseen.status, adopt: unseen.adopt, why: unseen.why },
    { status: 'unobserved', adopt: undefined, why: missed.unobserved },
  );
});

test('the fixpoint: the adopted profile admits every observed answer, or the check names the field and why', () => {
  const observations = [
    drawn('refusalStatus.sca', 401, 'SCA without kid'),
    drawn('refusalStatus.sca', 400, 'SCA hd of another body'),
    drawn('tokenErrors', 'rfc6749', 'wrong client secret'),
    drawn('tokenErrorCodes', 'specific', 'scope missing'),
    saw('messages.refund.root', 'fitoFIPmtRvsl'),
  ];
  const adopted = JSON.parse(adoptInto(localText, diffAgainst(JSON.parse(localText), observations)));
  assert.deepEqual(fixpointProblems(adopted, observations), []);
  assert.deepEqual(formatFixpoint([], observations.length), [
    'fixpoint: the adopted profile admits every one of the 5 answers discovery observed',
  ]);
  // Against the profile as it was (nightly's drift reads the same judge): sca 400 and the refund root are not admitted.
  assert.deepEqual(
    unmetAnswers(JSON.parse(localText), observations).map((u) => `${u.field}=${JSON.stringify(u.observed)}`),
    ['expectations.refusalStatus.sca=400', 'messages.refund.root="fitoFIPmtRvsl"'],
  );
  // Two roots for one exact field: no value states both, so the fixpoint fails and says which field and why.
  const roots = [saw('messages.refund.root', 'fitoFIPmtRvsl'), saw('messages.refund.root', 'fIToFIPmtRvsl')];
  const problems = fixpointProblems(JSON.parse(adoptInto(localText, diffAgainst(JSON.parse(localText), roots))), roots);
  assert.deepEqual(
    problems.map((u) => [u.field, u.observed]),
    [['messages.refund.root', 'fitoFIPmtRvsl']],
  );
  assert.match(
    formatFixpoint(problems, 2).join('\n'),
    /would fail on the target it was discovered from \(1 answer not admitted\):\n {2}✖ messages\.refund\.root: states "fIToFIPmtRvsl", but the target answered "fitoFIPmtRvsl"/,
  );
});

test('the return catalogue’s refusals are discovery triggers: every refused case on a known original, business ones last, each judged by its test’s class', async () => {
  const refusing = returnCases.filter(
    (c) => c.outcome !== 'accepted' && c.outcome !== 'either' && c.original !== 'unknown' && !readsTheTwin(c),
  );
  assert.deepEqual(
    [...returnTriggers.map((t) => t.name)].sort(),
    refusing.map((c) => `pacs.004 with ${c.name}`).sort(),
  );
  for (const c of refusing) {
    const trigger = returnTriggers.find((t) => t.name === `pacs.004 with ${c.name}`)!;
    assert.equal(trigger.cls, c.outcome === 'businessRefusal' ? 'business' : (c.refusal ?? 'validation'), c.name);
    assert.equal(trigger.needsCancellation, c.cancellationRequested ?? false, c.name);
  }
  const firstBusiness = returnTriggers.findIndex((t) => t.business);
  assert.ok(
    firstBusiness > 0 && returnTriggers.slice(firstBusiness).every((t) => t.business),
    'business triggers last: a business mutant may be accepted at submission (then rejected in pacs.002), in the way of the others while in flight',
  );
  assert.ok(new Set(returnTriggers.map((t) => t.cls)).size >= 3, 'validation, sca, missingHeader and business');
});

test('the unknown id discovery reads keeps the target’s id format: prefix, date, digits, hex and UUID version', () => {
  assert.equal(lookAlikeOf('PS20250601K7Q2M4ABCDEFGHIJ'), 'PS20250601K7Q2M4ABCDCDRSTU');
  assert.equal(lookAlikeOf('3f2c1a9e-8b7d-4c6e-9f10-123456789abc'), '3f2c1a9e-8b7d-4c6e-9f10-123456345efa');
  assert.equal(lookAlikeOf('123456789012345678901234'), '123456789012345678567890');
  for (const id of ['PS20250601K7Q2M4ABCDEFGHIJ', '3f2c1a9e-8b7d-4c6e-9f10-123456789abc', 'x'])
    assert.notEqual(lookAlikeOf(id), id);
});
