/**
 * npm test's lanes (scripts/lib/lanes.ts): the lane free first takes the next queued step, and a step
 * that reads another's output starts only once that one has ended. Steps here are timers, not commands.
 * Run: node --import tsx --test tests/unit/scripts/lanes.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuFloorLine, runLanes, type LaneStep } from '../../../scripts/lib/lanes';
import { busyShare, machineCpu } from '../../../scripts/lib/children-cpu';

interface Timed extends LaneStep {
  ms: number;
}

/** Runs the steps as timers and notes when each started and ended. */
function recorder(): { run: (step: Timed) => Promise<string>; events: string[] } {
  const events: string[] = [];
  return {
    events,
    run: async (step) => {
      events.push(`start ${step.name}`);
      await sleep(step.ms);
      events.push(`end ${step.name}`);
      return step.name;
    },
  };
}

test('the lane free first takes the next queued step, whichever lane it is', async () => {
  const { run, events } = recorder();
  // The first lane's own step is long; the second lane has none and takes the queue in order.
  const outcomes = await runLanes(
    [[{ name: 'long', ms: 600 }], []],
    [
      { name: 'a', ms: 20 },
      { name: 'b', ms: 20 },
      { name: 'c', ms: 20 },
    ],
    run,
  );
  assert.deepEqual(new Set(outcomes), new Set(['long', 'a', 'b', 'c']));
  // a, b and c ran one after the other on the free lane while the long step ran, not after it.
  assert.ok(events.indexOf('end c') < events.indexOf('end long'), events.join(', '));
});

test('a step with `after` starts once that step has ended, though a lane is free before', async () => {
  const { run, events } = recorder();
  // Two free lanes: without `after`, the kill matrix would start at once beside the clean run.
  await runLanes(
    [[], []],
    [
      { name: 'clean run', ms: 40 },
      { name: 'kill matrix', ms: 10, after: 'clean run' },
      { name: 'quick', ms: 10 },
    ],
    run,
  );
  assert.ok(events.indexOf('end clean run') < events.indexOf('start kill matrix'), events.join(', '));
  // The lane that ran the clean run went on to the next step while the other waited.
  assert.ok(events.indexOf('start quick') < events.indexOf('end kill matrix'), events.join(', '));
});

test('one lane runs its steps and then the whole queue in order (npm test --serial)', async () => {
  const { run, events } = recorder();
  const outcomes = await runLanes(
    [[]],
    [
      { name: 'x', ms: 5 },
      { name: 'y', ms: 5 },
      { name: 'z', ms: 5 },
    ],
    run,
  );
  assert.deepEqual(outcomes, ['x', 'y', 'z']);
  assert.deepEqual(events, ['start x', 'end x', 'start y', 'end y', 'start z', 'end z']);
});

test('the CPU floor line: CPU seconds over the cores, and how far the wall time is above it', () => {
  assert.equal(
    cpuFloorLine(738.3, 1327.4, 2),
    'CPU floor on 2 cores: 664 s (1327 CPU-s ÷ 2); the wall time is 1.11× it',
  );
  assert.equal(
    cpuFloorLine(436.3, 764.6, 2, 0.988),
    'CPU floor on 2 cores: 382 s (765 CPU-s ÷ 2); the wall time is 1.14× it; the cores were busy 99 % of the wall time (every process on the machine, the references too)',
  );
});

test('how busy the cores were between two readings of the machine, whatever ran', () => {
  assert.equal(busyShare({ busy: 100, total: 400 }, { busy: 250, total: 600 }), 0.75);
  assert.equal(busyShare({ busy: 100, total: 400 }, { busy: 100, total: 400 }), undefined);
  const now = machineCpu();
  if (process.platform === 'linux') assert.ok(now && now.busy > 0 && now.total >= now.busy, JSON.stringify(now));
});
