/**
 * A directed sequence played in the background and shown in its test afterwards
 * (engines/exploration/played.ts): the test must read as if the sequence had run there, each
 * judgement in the step that made it, and end as the play ended (finished, blocked, or thrown).
 * Run: node --import tsx --test tests/unit/engines/played-sequence.test.ts
 */
import { test } from 'node:test';
import { noteFinal, noteShapeSent, shapeAccepted, shapeSeenAccepted } from '../../../checks/shape-evidence';
import { refusedDespiteShape } from '../../../checks/exploration';
import assert from 'node:assert/strict';
import type { Exchange } from '../../../transport/http';
import type { Api } from '../../../client/api';
import type { SequenceRunner } from '../../../engines/exploration/executor';
import type { Finding } from '../../../checks/payment-model';
import { play, showPlayed } from '../../../engines/exploration/played';
import { moneySequences } from '../../../engines/exploration/money-sequences';

const exchange = (status: number): Exchange => ({ response: { status } }) as unknown as Exchange;

/** An Api that only keeps exchanges, as Api.background() does. */
function stepApi(): Api {
  const exchanges: Exchange[] = [];
  return { exchanges, attachEarlier: async () => undefined } as unknown as Api;
}

/** The test's side: what it showed, in order. */
function showingRunner(): { runner: SequenceRunner; shown: string[] } {
  const shown: string[] = [];
  const runner: SequenceRunner = {
    step: async (title, body) => {
      shown.push(`step ${title}`);
      const api = {
        attachEarlier: async (xs: readonly Exchange[]) =>
          void shown.push(`attached ${xs.map((x) => x.response.status).join(',')}`),
      } as unknown as Api;
      return body(api);
    },
    record: (f) => void shown.push(`${f.ok ? 'holds' : 'broken'} ${f.rule}`),
    blocked: (what) => {
      shown.push(`blocked ${what}`);
      throw new Error('skipped');
    },
  };
  return { runner, shown };
}

const finding = (rule: string, ok: boolean): Finding => ({ rule, ok, what: rule });

test('a finished play is shown step by step, each judgement inside the step that made it', async () => {
  const played = await play(async (runner) => {
    await runner.step('1. pay', async (api) => {
      api.exchanges.push(exchange(201));
      runner.record(finding('P8-01', true));
    });
    await runner.step('2. repeat', async (api) => {
      api.exchanges.push(exchange(200), exchange(201));
      runner.record(finding('IDEM-02', false));
    });
  }, stepApi);
  assert.deepEqual(played.end, { ended: 'finished' });
  const { runner, shown } = showingRunner();
  await showPlayed(played, runner);
  assert.deepEqual(shown, [
    'step 1. pay',
    'attached 201',
    'holds P8-01',
    'step 2. repeat',
    'attached 200,201',
    'broken IDEM-02',
  ]);
});

test('a blocked play shows its steps, then blocks the test with what did not come', async () => {
  const played = await play(async (runner) => {
    await runner.step('1. refund', async () => {
      runner.record(finding('MNY-01', true));
      runner.blocked('the refund is accepted', 'it was refused', 'RFD-07');
    });
    await runner.step('2. never played', async () => undefined);
  }, stepApi);
  assert.deepEqual(played.end, {
    ended: 'blocked',
    what: 'the refund is accepted',
    why: 'it was refused',
    assumption: 'RFD-07',
    unlessShapeSeen: undefined,
  });
  const { runner, shown } = showingRunner();
  await assert.rejects(showPlayed(played, runner), /skipped/);
  assert.deepEqual(shown, ['step 1. refund', 'attached ', 'holds MNY-01', 'blocked the refund is accepted']);
});

test('a play blocked by the declared shape alone hands its runner the shape that would make it a failure', async () => {
  const shape = { shape: 'refund' as const, rule: 'RFD-01', clientId: 'client-seen-later' };
  const played = await play(async (runner) => {
    await runner.step('1. refund', async () => {
      await runner.blocked(
        'the refund is accepted',
        'it was refused (HTTP 422), which the spec allows here: …',
        'RFD-07',
        shape,
      );
    });
  }, stepApi);
  const handed: unknown[] = [];
  const { runner } = showingRunner();
  await showPlayed(played, { ...runner, blocked: (_what, _why, _assumption, unless) => void handed.push(unless) });
  assert.deepEqual(handed, [shape]);
});

test('the declared shape is seen accepted once a message in it settles accepted, per client', async () => {
  assert.equal(await shapeSeenAccepted('return', 'client-a', 1_000), false, 'nothing in flight: no wait');
  noteShapeSent('return', 'RT-1', 'client-a');
  const seen = shapeSeenAccepted('return', 'client-a', 5_000);
  noteFinal('RT-1', true);
  assert.equal(await seen, true);
  assert.equal(shapeAccepted('return', 'client-b'), false);
  noteShapeSent('refund', 'RF-1', 'client-a');
  noteFinal('RF-1', false);
  assert.equal(shapeAccepted('refund', 'client-a'), false, 'a refund that settled rejected confirms nothing');
  const finding = refusedDespiteShape(
    { shape: 'return', rule: 'RTR-01' },
    'return R1 is accepted',
    'it was refused (HTTP 422), which the spec allows here: no return …',
  );
  assert.equal(finding.ok, false);
  assert.equal(finding.rule, 'RTR-01');
  assert.match(finding.received!, /^it was refused \(HTTP 422\); yet a return the same client sent/);
});

test('a play that threw throws again inside the step it threw in', async () => {
  const played = await play(async (runner) => {
    await runner.step('1. read', async () => {
      throw new Error('the target closed the connection');
    });
  }, stepApi);
  assert.equal(played.end.ended, 'failed');
  const { runner, shown } = showingRunner();
  await assert.rejects(showPlayed(played, runner), /closed the connection/);
  assert.deepEqual(shown, ['step 1. read', 'attached ']);
});

test('a money sequence whose refused step is a return or a refund sends a valid one of its kind first', () => {
  for (const sequence of moneySequences) {
    const accepted = new Set<string>();
    for (const { step, expect } of sequence.steps) {
      if (expect === 'refused' && (step.do === 'return' || step.do === 'refund'))
        assert.ok(accepted.has(step.do), `${sequence.name}: no ${step.do} accepted before the refused one`);
      if (expect === 'accepted') accepted.add(step.do);
    }
  }
});
