/**
 * Status polling waits for settlement. Its waits must grow but stay bounded by the profile, its
 * deadline must hold, and a timeout must carry every status seen: "stuck at PEND" and "never
 * answered" are different bugs, and the report must say which.
 * Run: node --import tsx --test tests/unit/transport/poll.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil, PollTimeoutError } from '../../../transport/poll';

/** A reader that records when it was called. */
function recorder<T>(values: (i: number) => T): { read: () => Promise<T>; times: number[] } {
  const times: number[] = [];
  return {
    times,
    read: async () => {
      times.push(Date.now());
      return values(times.length - 1);
    },
  };
}

test('returns at once when the first value is done, with its history', async () => {
  const r = recorder(() => 'ACCC');
  const result = await pollUntil(r.read, (v) => v === 'ACCC', {
    intervalMs: 1_000,
    maxIntervalMs: 1_000,
    timeoutMs: 5_000,
  });
  assert.equal(result.value, 'ACCC');
  assert.equal(result.attempts, 1);
  assert.deepEqual(result.history, ['ACCC']);
  assert.ok(result.elapsedMs < 500);
});

test('polls until done, keeping every value oldest first', async () => {
  const seq = ['PEND', 'PEND', 'ACSP', 'ACCC'];
  const r = recorder((i) => seq[Math.min(i, seq.length - 1)]!);
  const result = await pollUntil(r.read, (v) => v === 'ACCC', { intervalMs: 10, maxIntervalMs: 20, timeoutMs: 2_000 });
  assert.equal(result.value, 'ACCC');
  assert.equal(result.attempts, 4);
  assert.deepEqual(result.history, seq);
});

/**
 * A virtual clock: Date.now() is frozen and only moves by the waits pollUntil asks for (and by what a
 * reader spends), and each wait fires at once. The intervals and the deadline are then checked
 * exactly, whatever the machine's load.
 */
function virtualClock(): { waits: number[]; now: () => number; spend: (ms: number) => void; restore: () => void } {
  const realNow = Date.now;
  const realSetTimeout = globalThis.setTimeout;
  let now = 1_700_000_000_000;
  const waits: number[] = [];
  Date.now = () => now;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => {
    waits.push(ms ?? 0);
    now += ms ?? 0;
    return realSetTimeout(fn, 0);
  }) as typeof setTimeout;
  return {
    waits,
    now: () => now,
    spend: (ms) => (now += ms),
    restore: () => {
      Date.now = realNow;
      globalThis.setTimeout = realSetTimeout;
    },
  };
}

test('backoff starts at intervalMs, grows, and never exceeds maxIntervalMs', async () => {
  const clock = virtualClock();
  try {
    const options = { intervalMs: 20, maxIntervalMs: 60, timeoutMs: 600 };
    await assert.rejects(
      pollUntil(
        async () => 'PEND',
        () => false,
        options,
      ),
      PollTimeoutError,
    );
    const w = clock.waits;
    assert.equal(w[0], options.intervalMs);
    assert.ok(
      w.every((x, i) => i === 0 || x >= w[i - 1]!),
      `never shrinks: ${w.join(', ')}`,
    );
    assert.ok(
      w.every((x) => x <= options.maxIntervalMs),
      `bounded: ${w.join(', ')}`,
    );
    assert.ok(w[1]! > w[0]!, `grows: ${w.join(', ')}`);
    assert.equal(w.at(-1), options.maxIntervalMs, `reaches the cap and stays there: ${w.join(', ')}`);
    assert.ok(w.length > 8, `a capped backoff keeps polling (${w.length} waits in 600 ms)`);
  } finally {
    clock.restore();
  }
});

test('intervalMs = maxIntervalMs: every wait is exactly that interval', async () => {
  const clock = virtualClock();
  try {
    await assert.rejects(
      pollUntil(
        async () => 'PEND',
        () => false,
        { intervalMs: 50, maxIntervalMs: 50, timeoutMs: 500 },
      ),
      PollTimeoutError,
    );
    assert.ok(
      clock.waits.every((x) => x === 50),
      clock.waits.join(', '),
    );
  } finally {
    clock.restore();
  }
});

test('the deadline holds: every poll starts within timeoutMs and the loop gives up without overshooting it', async () => {
  const clock = virtualClock();
  try {
    const options = { intervalMs: 30, maxIntervalMs: 100, timeoutMs: 400 };
    const started = clock.now();
    const polls: number[] = [];
    await assert.rejects(
      pollUntil(
        async () => {
          polls.push(clock.now() - started);
          clock.spend(7); // a read costs time too
          return 'PEND';
        },
        () => false,
        options,
      ),
      PollTimeoutError,
    );
    const elapsed = clock.now() - started;
    assert.ok(
      polls.every((t) => t <= options.timeoutMs),
      `polls at ${polls.join(', ')}`,
    );
    assert.ok(elapsed <= options.timeoutMs, `gave up at ${elapsed} ms`);
    // It gave up only because the next wait would have crossed the deadline.
    const nextWait = Math.min(options.maxIntervalMs, Math.ceil(clock.waits.at(-1)! * 1.6));
    assert.ok(
      elapsed + nextWait > options.timeoutMs,
      `gave up early: at ${elapsed} ms with a next wait of ${nextWait} ms`,
    );
  } finally {
    clock.restore();
  }
});

test('a slow reader still ends at the deadline (elapsed time counts the reads, not only the waits)', async () => {
  const clock = virtualClock();
  try {
    let reads = 0;
    const error = await pollUntil(
      async () => {
        reads++;
        clock.spend(150);
        return reads;
      },
      () => false,
      { intervalMs: 10, maxIntervalMs: 10, timeoutMs: 1_000 },
    ).catch((e: unknown) => e);
    assert.ok(error instanceof PollTimeoutError);
    assert.ok(reads <= 7, `${reads} reads of 150 ms each (+ 10 ms waits) in a 1 s budget`);
    assert.deepEqual(
      error.history,
      Array.from({ length: reads }, (_v, i) => i + 1),
    );
  } finally {
    clock.restore();
  }
});

test('real timers: polls every few milliseconds until done, well within its deadline', async () => {
  let n = 0;
  const result = await pollUntil(
    async () => ++n,
    (v) => v >= 5,
    { intervalMs: 10, maxIntervalMs: 20, timeoutMs: 10_000 },
  );
  assert.equal(result.value, 5);
  assert.ok(result.elapsedMs < 5_000, `${result.elapsedMs} ms`);
});

test('a timeout error carries the whole history and says what was awaited', async () => {
  const clock = virtualClock();
  try {
    await timeoutCarriesHistory();
  } finally {
    clock.restore();
  }
});

async function timeoutCarriesHistory(): Promise<void> {
  const seq = ['PEND', 'PEND', 'ACSP'];
  const r = recorder((i) => ({ txSts: seq[Math.min(i, seq.length - 1)]! }));
  const error = await pollUntil(
    r.read,
    (v) => v.txSts === 'ACCC',
    { intervalMs: 10, maxIntervalMs: 20, timeoutMs: 150 },
    'payment settled',
  ).then(
    () => assert.fail('should time out'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof PollTimeoutError);
  assert.equal(error.name, 'PollTimeoutError');
  assert.match(error.message, /^payment settled not reached within 150 ms \(\d+ polls\)$/);
  const history = error.history as { txSts: string }[];
  assert.equal(history.length, r.times.length, 'every value read is in the history');
  assert.deepEqual(
    history.slice(0, 3).map((h) => h.txSts),
    seq,
  );
  assert.ok(history.slice(3).every((h) => h.txSts === 'ACSP'));
  assert.match(error.message, new RegExp(`\\(${history.length} polls\\)`));
}

test('a reader that throws stops polling with that error (a broken read is not a slow settlement)', async () => {
  let calls = 0;
  await assert.rejects(
    pollUntil(
      async () => {
        if (++calls === 2) throw new Error('500 from status endpoint');
        return 'PEND';
      },
      () => false,
      { intervalMs: 10, maxIntervalMs: 10, timeoutMs: 1_000 },
    ),
    /500 from status endpoint/,
  );
  assert.equal(calls, 2);
});

test('quietMs: a value that must hold is read again when its hold is up, not at every interval, never past the deadline', async () => {
  const clock = virtualClock();
  try {
    const seq = ['PEND', 'ACSC', 'ACSC', 'ACCC'];
    const r = recorder((i) => seq[Math.min(i, seq.length - 1)]!);
    const result = await pollUntil(r.read, (v) => v === 'ACCC', {
      intervalMs: 20,
      maxIntervalMs: 60,
      timeoutMs: 2_000,
      quietMs: (v) => (v === 'ACSC' ? 500 : undefined),
    });
    assert.deepEqual(result.history, seq);
    assert.deepEqual(clock.waits, [20, 500, 500], 'the backoff, then the hold twice');

    clock.waits.length = 0;
    const held = pollUntil(
      async () => 'ACSC',
      () => false,
      { intervalMs: 20, maxIntervalMs: 60, timeoutMs: 300, quietMs: () => 10_000 },
    );
    await assert.rejects(held, PollTimeoutError);
    assert.ok(
      clock.waits.every((w) => w <= 300),
      `no wait past the deadline: ${clock.waits.join(', ')}`,
    );
  } finally {
    clock.restore();
  }
});
