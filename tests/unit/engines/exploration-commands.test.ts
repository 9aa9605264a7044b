/**
 * The exploration's commands (engines/exploration/commands/) over their model (model.ts
 * SequenceModel): whether a command can run is the model's question alone, asked without the system
 * under test; each step becomes the command fast-check prints as the step.
 * Run: node --import tsx --test tests/unit/engines/exploration-commands.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildPacs008 } from '../../../messages/pacs008';
import { commandOf } from '../../../engines/exploration/commands';
import { Refund } from '../../../engines/exploration/commands/refund';
import { Shadow } from '../../../engines/exploration/commands/shadow';
import { refOf, SequenceModel, type ModelKit } from '../../../engines/exploration/model';
import { describeStep, type Step } from '../../../engines/exploration/steps';
import { contestPending } from '../../../engines/exploration/executor';

const kit = (amounts: bigint[], stranger = true): ModelKit => ({
  payments: amounts.map((amount, i) => ({
    message: buildPacs008({ seed: `unit|${i}` }),
    id: `id-P${i}`,
    amount,
    final: { txSts: 'ACCC', statusClass: 'accepted', reasonCodes: [], history: ['ACCC'], last: undefined as never },
  })),
  submitted: amounts.length,
  clients: stranger ? { stranger: { clientId: 'stranger' } as never } : {},
});
const model = (amounts: bigint[] = [10_000n], options: { stranger?: boolean; budget?: number } = {}): SequenceModel =>
  new SequenceModel(kit(amounts, options.stranger ?? true), options.budget ?? 20, {
    refundShapeConfirmed: true,
    returnShapeConfirmed: true,
  });

const EVERY_KIND: Step[] = [
  { do: 'pay', cents: 100 },
  { do: 'pay invalid', value: 0.001 },
  { do: 'pay duplicates', copies: 3 },
  { do: 'settle' },
  { do: 'repeat', payment: 0, body: 'same' },
  { do: 'read status', payment: 0, as: 'payer' },
  { do: 'read incoming', payment: 0, as: 'beneficiary' },
  { do: 'cancel', payment: 0, as: 'payer' },
  { do: 'return', payment: 0, amount: 'whole', as: 'beneficiary' },
  { do: 'refund', payment: 0, amount: { of: 'rest' }, as: 'beneficiary' },
  { do: 'invalid amount', payment: 0, on: 'refund', value: 0.001 },
  { do: 'burst', payment: 0, kind: 'refunds', copies: 3 },
  { do: 'drain', payment: 0, pieceCents: 2, pieces: 20 },
  { do: 'shadow', payment: 0 },
];

test('every kind of step is a command of its own, printed as its step (what fast-check shows and replays)', () => {
  const commands = EVERY_KIND.map((step) => commandOf(step));
  assert.equal(new Set(commands.map((c) => c.constructor)).size, EVERY_KIND.length);
  for (const [i, c] of commands.entries()) assert.equal(c.toString(), describeStep(EVERY_KIND[i]!));
  for (const c of commands)
    assert.equal(c.check(model()), true, `${c.toString()} runs on a kit with a settled payment and a stranger`);
});

test('one command per file: each file of commands/ but its index and their base holds the command of one kind of step', () => {
  const dir = path.join(__dirname, '..', '..', '..', 'engines', 'exploration', 'commands');
  const files = readdirSync(dir).filter((f) => f !== 'index.ts' && f !== 'step-command.ts');
  const classes = files.map((f): string[] =>
    [...readFileSync(path.join(dir, f), 'utf8').matchAll(/^export class (\w+)/gm)].map((m) => m[1]!),
  );
  for (const [i, found] of classes.entries())
    assert.equal(found.length, 1, `${files[i]}: ${found.join(', ') || 'none'}`);
  assert.deepEqual(classes.flat().sort(), EVERY_KIND.map((step) => commandOf(step).constructor.name).sort());
});

test('a step that targets a payment needs one; a stranger’s step needs a third institution', () => {
  assert.equal(commandOf({ do: 'read status', payment: 0, as: 'payer' }).check(model([])), false);
  assert.equal(commandOf({ do: 'pay', cents: 100 }).check(model([])), true);
  assert.equal(commandOf({ do: 'shadow', payment: 0 }).check(model([10_000n], { stranger: false })), false);
  assert.equal(
    commandOf({ do: 'cancel', payment: 0, as: 'stranger' }).check(model([10_000n], { stranger: false })),
    false,
  );
  assert.equal(commandOf({ do: 'cancel', payment: 0, as: 'payer' }).check(model([10_000n], { stranger: false })), true);
});

test('the payment budget bounds what a sequence creates, a repeat’s and duplicates’ sentinel included', () => {
  const full = model([10_000n, 3n], { budget: 3 });
  assert.equal(commandOf({ do: 'pay', cents: 100 }).check(full), true);
  assert.equal(commandOf({ do: 'pay duplicates', copies: 2 }).check(full), false);
  full.submitted = 3;
  assert.equal(commandOf({ do: 'repeat', payment: 0, body: 'same' }).check(full), false);
  assert.equal(commandOf({ do: 'read status', payment: 1, as: 'payer' }).check(full), true);
});

test('the model decides: a refund of the rest runs while something is left, a shadow once per payment', () => {
  const m = model();
  const p = m.target(0)!;
  const rest = commandOf({ do: 'refund', payment: 0, amount: { of: 'rest' }, as: 'beneficiary' });
  assert.ok(rest instanceof Refund);
  assert.equal(rest.check(m), true);
  m.sentBack(p, 'return R1', 'return', 'beneficiary', p.amount, 201, 'id-R1');
  assert.equal(rest.check(m), false, 'a 2xx return counts as gone until its status says otherwise');
  assert.equal(
    commandOf({ do: 'burst', payment: 0, kind: 'refunds', copies: 3 }).check(m),
    true,
    'a burst on nothing left: all of it must be refused',
  );
  assert.equal(commandOf({ do: 'burst', payment: 0, kind: 'refunds', copies: 1 }).check(m), false);

  const shadow = commandOf({ do: 'shadow', payment: 0 });
  assert.ok(shadow instanceof Shadow);
  assert.equal(shadow.check(m), true);
  m.strangerRefs.add(refOf(p));
  assert.equal(shadow.check(m), false);
});

test('a later return or refund the target took, asking with the pending ones more than the payment holds, lifts their "must end accepted" (§3: "Transitions: not shown")', () => {
  const accepted = { answer: 'accepted' as const, rule: 'RFD-01', why: 'it fits' };
  /** Refund F1 of 60.00 of 100.00 answered 202 and held to 'accepted', then `second`: what is still held. */
  const heldAfter = (second: { label: string; kind: 'return' | 'refund'; amount: bigint }) => {
    const m = model();
    const p = m.payments[0]!;
    const f1 = m.sentBack(p, 'refund F1', 'refund', 'beneficiary', 6_000n, 202, 'id-F1');
    m.acceptedAtSubmission.push({ back: f1, expectation: accepted, what: 'refund F1' });
    m.sentBack(p, second.label, second.kind, 'beneficiary', second.amount, 202, `id-${second.label}`);
    contestPending(m, p);
    return m.acceptedAtSubmission.length;
  };
  assert.equal(heldAfter({ label: 'F2', kind: 'refund', amount: 4_000n }), 1, '60.00 and 40.00 of 100.00 both fit');
  assert.equal(heldAfter({ label: 'R1', kind: 'return', amount: 10_000n }), 0, 'the return may settle first');
});
