/**
 * The floor of a run that learned its target's rate limit (record/run-floor.ts learnedModel): each
 * bucket at the rate the history measured, else at the workers' estimate once it was refused often
 * enough to have one; a client never refused at what the others allow. The floor of a played or
 * declared limit: tests/unit/reference/sandbox-conditions.test.ts.
 * Run: node --require tsx/cjs --test tests/unit/record/run-floor.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketFloors, learnedBucketNamer, learnedModel, widestScope } from '../../../record/run-floor';
import { describeLearnedLimits } from '../../../transport/rate-limit';
import type { LearnedLimit } from '../../../transport/rate-limit';

const refused = (client: string, epoch: number, refusedAt: number[]): LearnedLimit => ({
  rate: refusedAt.at(-1)!,
  since: 0,
  epoch,
  source: 'refusals',
  refusedAt,
  bucket: { kind: 'client', client },
});

test('a measured rate is the floor’s, over the estimate; a bucket refused once counts only when measured', () => {
  const primary = refused('p', 40, [28, 29, 27]);
  const secondary = refused('s', 1, [60]);
  const measured = new Map<LearnedLimit, number>([[primary, 20.1]]);
  const model = learnedModel([primary, secondary], 'client', (l) => measured.get(l))!;
  assert.equal(model.clientRate('p'), 20.1, 'the measured rate, not the estimate (28)');
  assert.equal(model.clientRate('s'), 20.1, 'refused once and not measured: taken to allow what the others do');
  assert.equal(model.words, '≈ 20.1/s per client; token requests in their client’s bucket');
  measured.set(secondary, 19.8);
  assert.equal(learnedModel([primary, secondary], 'client', (l) => measured.get(l))!.clientRate('s'), 19.8);
  // Without a measure, the estimate of a bucket refused often enough; nothing of one refused once.
  assert.equal(learnedModel([primary], 'client', () => undefined)!.clientRate('p'), 28);
  assert.equal(
    learnedModel([secondary], 'client', () => undefined),
    undefined,
  );
});

test('the floor of a learned model: the busiest client’s requests at its measured rate', () => {
  const primary = refused('p', 40, [28, 29, 27]);
  const model = learnedModel([primary], 'client', () => 20)!;
  const classes = [
    { origin: 'o', kind: 'api' as const, client: 'p', role: 'primary', sent: 3_900, refused: 100 },
    { origin: 'o', kind: 'token' as const, client: 'p', role: 'primary', sent: 100, refused: 0 },
  ];
  assert.deepEqual(
    bucketFloors(classes, model).map((b) => [b.name, b.requests, b.rate, b.floorMs]),
    [['client primary', 3_900, 20, 195_000]],
  );
});

test('the token endpoint’s scope: the furthest the evidence reached', () => {
  assert.equal(widestScope([]), 'client');
  assert.equal(widestScope([{ scope: 'own', own: 3, address: 0 }]), 'own');
  assert.equal(
    widestScope([
      { scope: 'own', own: 3, address: 0 },
      { scope: 'address', own: 0, address: 2 },
    ]),
    'address',
  );
  const token: LearnedLimit = {
    rate: 12,
    since: 0,
    epoch: 4,
    source: 'refusals',
    refusedAt: [12, 11, 12],
    bucket: { kind: 'token', per: 'address' },
  };
  const model = learnedModel([refused('p', 5, [40, 41, 42]), token], 'address', (l) => (l === token ? 10 : undefined))!;
  assert.equal(model.tokenRate, 10);
  assert.equal(
    model.words,
    '≈ 41.0/s per client; the token endpoint a bucket of its own, ≈ 10.0/s for every client of the address',
  );
});

test('a learned limit is named as the floor lines name its client: its role, and the end of its fingerprint when two share it', () => {
  const classes = [
    { origin: 'o', kind: 'api' as const, client: 'fp-primary-aaaaaa', role: 'primary', sent: 4_000, refused: 9 },
    { origin: 'o', kind: 'api' as const, client: 'fp-primary-bbbbbb', role: 'primary', sent: 8, refused: 0 },
    { origin: 'o', kind: 'token' as const, client: 'fp-secondary-cccccc', role: 'secondary', sent: 80, refused: 0 },
  ];
  const name = learnedBucketNamer(classes);
  assert.equal(name(refused('fp-primary-aaaaaa', 20, [40])), 'primary aaaaaa');
  // The floor lines name the same clients the same way (clientNames).
  const floors = bucketFloors(classes, learnedModel([refused('fp-primary-aaaaaa', 20, [40])], 'client', () => 40)!);
  assert.deepEqual(floors.map((b) => b.name).sort(), [
    'client primary aaaaaa',
    'client primary bbbbbb',
    'client secondary',
  ]);
  assert.equal(name(refused('fp-secondary-cccccc', 2, [60])), 'secondary');
  assert.equal(name(refused('fp-unknown', 2, [60])), undefined);
  const everyClient: LearnedLimit = { ...refused('x', 3, [10]), bucket: { kind: 'token', per: 'address' } };
  assert.equal(name(everyClient), undefined, 'the token endpoint of every client is no one client’s');
  assert.equal(
    describeLearnedLimits(
      [refused('fp-primary-aaaaaa', 20, [44, 46, 45]), refused('fp-secondary-cccccc', 2, [60])],
      [],
      {
        measured: (l) => (l.bucket?.kind === 'client' && l.bucket.client === 'fp-primary-aaaaaa' ? 40.2 : undefined),
        name,
      },
    ),
    'rate limit learned from the target (the profile declares none), requests/s per client: primary aaaaaa ≈ 40.2, let through between its refusals (20 refusals moved the pace); secondary paced after 2 refusals, too few to estimate',
  );
});
