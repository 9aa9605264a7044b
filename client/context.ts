/**
 * The client's seam to whatever runs it. The client (api.ts, flows/, reference-admin.ts) serves
 * Playwright tests, discovery and scripts alike and imports no test runner: what it needs of one is the
 * small TestHost below. Playwright's host (fixtures/step.ts, installed by fixtures/test.ts)
 * makes a step a test.step and ends the running test blocked, inconclusive or skipped; the plain host,
 * in place until then (discovery, scripts, unit tests), runs a step as a plain call and throws what
 * would have ended a test.
 *
 * What needs no runner lives here: background work is marked with AsyncLocalStorage (it follows the
 * work through every await), and a failed precondition is an error class.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type CheckHost, PLAIN_CHECK_HOST, useCheckHost } from '../checks/host';
import type { SkipReason } from '../ledger/outcomes';
import { ruleById } from '../ledger/rules';
import { asInconclusive, InfrastructureInconclusive } from './inconclusive';

/** The checks' host (checks/host.ts: a step, a failed check, a skip) and what the client needs besides. */
export interface TestHost extends CheckHost {
  /** Whether a test is running now (Playwright: test.info() answers). Background work is told apart here, not by the host. */
  testRunning(): boolean;
  /** Ends the running test as blocked by the precondition's rule, or failed when the test cites that rule itself. */
  block(failure: PreconditionFailed): never;
  /** Ends the running test as inconclusive (infrastructure). */
  endInconclusive(failure: InfrastructureInconclusive): never;
  /** Gives the running test `ms` more before it times out. */
  extendTimeout(ms: number): void;
}

/** No test runner: a step is the plain call, and what would end a test is thrown to the caller. */
export const PLAIN_HOST: TestHost = {
  ...PLAIN_CHECK_HOST,
  testRunning: () => false,
  block: (failure) => {
    throw failure;
  },
  endInconclusive: (failure) => {
    throw failure;
  },
  extendTimeout: () => {},
};

let host: TestHost = PLAIN_HOST;

/** Makes `runner` the host of every client call and every check of this process (fixtures/test.ts installs Playwright's). */
export function useTestHost(runner: TestHost): void {
  host = runner;
  useCheckHost(runner);
}

// ── background work ─────────────────────────────────────────────────────────────────────────────
// Work that runs outside any test: the settled-payment pool refilling ahead of demand, the
// observations started when a worker starts, exploration kits. A test step or an expect would attach
// to whichever test happens to be running, so background work must use neither: it is marked here.

const marker = new AsyncLocalStorage<string>();

export function inBackground(): boolean {
  return marker.getStore() !== undefined;
}

/** What the background work running now is, in a few words (the run's history names its requests so); undefined outside it. */
export function backgroundWork(): string | undefined {
  return marker.getStore();
}

/**
 * Runs `work` marked as background, named `what` ("settled-payment pool"); the returned promise never
 * rejects unhandled (a caller awaits it or drops it).
 */
export function runInBackground<T>(work: () => Promise<T>, what = 'work outside any test'): Promise<T> {
  const running = marker.run(what, work);
  running.catch(() => undefined);
  return running;
}

/** Whether this is a test's own work: a test is running and this is not background work. */
export function insideTest(): boolean {
  return !inBackground() && host.testRunning();
}

// ── steps ───────────────────────────────────────────────────────────────────────────────────────

/** A step of the running test; the plain body in background work and outside tests. */
export function step<T>(title: string, body: () => Promise<T>): Promise<T> {
  return insideTest() ? host.step(title, body) : body();
}

/** A step of the test the caller works for (an Api made for a test): no check that one is running. */
export function testStep<T>(title: string, body: () => T | Promise<T>): Promise<T> {
  return host.step(title, body);
}

/**
 * Before the running test waits for work the worker started ahead of it (settled payments, an
 * observation): that work's pace is the target's, a rate-limited sandbox's queue or its settlement,
 * not the test's own. The wait gets the profile's polling timeout on top of the test's time: room for
 * one status poll's deadline (which names the rule at stake) to end a wait before Playwright's test
 * timeout, which names none (measured: a throttled run's incoming read timed out at 60 s while the
 * pool's first batch was still settling). Work that chains several polls can outlast it: a test
 * waiting on it waits through whileBackgroundRuns.
 */
export function allowForWaitOnBackground(ms: number): void {
  if (insideTest()) host.extendTimeout(ms);
}

/**
 * How long a test waits on running background work (a pool's fill, an observation), in the target's
 * polling timeouts, before it ends inconclusive. That work's own requests are bounded (each status
 * poll by polling.timeoutMs), so while it runs the test's time is extended with it: on a throttled
 * target every worker's background work shares one client's bucket, and the first fills took over 90 s
 * on the reference.
 */
export const BACKGROUND_WAIT_TIMEOUTS = 10;

/**
 * Waits for `work`, extending the running test's time while it runs, by a quarter of the target's
 * polling timeout a quarter at a time; once the test has waited BACKGROUND_WAIT_TIMEOUTS of them (since
 * `since`), it ends the test inconclusive, in the words of `tooSlow` (given the seconds waited): work
 * that slow says nothing about a rule. A Playwright test timeout would have failed the test, naming none.
 */
export async function whileBackgroundRuns(
  work: Promise<unknown>,
  timeoutMs: number,
  since: number,
  tooSlow: (waitedS: number) => string,
): Promise<void> {
  const tick = Math.max(100, Math.floor(timeoutMs / 4));
  allowForWaitOnBackground(tick);
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const ticked = await Promise.race([
      work.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(resolve, tick, true);
      }),
    ]).finally(() => clearTimeout(timer));
    if (!ticked) return;
    const waitedMs = Date.now() - since;
    if (waitedMs >= BACKGROUND_WAIT_TIMEOUTS * timeoutMs)
      inconclusive(new InfrastructureInconclusive(tooSlow(Math.round(waitedMs / 1000))));
    allowForWaitOnBackground(tick);
  }
}

// ── ending a test ───────────────────────────────────────────────────────────────────────────────

/**
 * A precondition of background work or of a flow did not hold: the documented rule it rests on failed
 * (that rule's own test reports it). The tests that needed it are blocked by that rule, never failed,
 * so one broken rule does not cascade into every test that needs a payment, an id or a settlement.
 */
export class PreconditionFailed extends Error {
  override name = 'PreconditionFailed';
  constructor(
    readonly rule: string,
    message: string,
    readonly remedy?: string,
  ) {
    super(message);
  }

  get reason(): SkipReason {
    // Worded as Verdicts.gate words it: an assumption that does not hold is named as one.
    const by = ruleById.get(this.rule)?.level === 'assumption' ? `assumption ${this.rule}` : this.rule;
    return { kind: 'blocked', by, answer: this.message, ...(this.remedy ? { remedy: this.remedy } : {}) };
  }
}

/**
 * A precondition worded as what must hold, with what came back, and the rule it rests on. In a test
 * it blocks the test at once; in background work it is kept and blocks the test that takes the result.
 */
export function ensure(rule: string, condition: boolean, message: string, remedy?: string): asserts condition {
  if (condition) return;
  const failure = new PreconditionFailed(rule, message, remedy);
  if (insideTest()) host.block(failure);
  throw failure;
}

/**
 * The run sends nothing more to its target (checks/target-verdict.ts sendsNothingMore): a test that
 * would is blocked by the run's verdict on the target, which is no rule of the ledger.
 */
export class NothingMoreSent extends PreconditionFailed {
  override name = 'NothingMoreSent';
  constructor(why: string) {
    super('', why);
  }

  override get reason(): SkipReason {
    return { kind: 'blocked', by: 'the run’s verdict on the target', answer: this.message };
  }
}

/** Blocks the running test (or, in background work, the test that takes its result): nothing more is sent. */
export function sendNothingMore(why: string): never {
  const failure = new NothingMoreSent(why);
  if (insideTest()) host.block(failure);
  throw failure;
}

/** Ends the running test as inconclusive (infrastructure); in background work it throws, and the test that takes the result ends so. */
export function inconclusive(failure: InfrastructureInconclusive): never {
  if (insideTest()) host.endInconclusive(failure);
  throw failure;
}

/**
 * Rethrows what background work failed with, in the test that takes its result: a failed precondition
 * blocks it. Called in background work itself (an observation taking from a pool of its own), it only
 * rethrows: the running test is another one, and the observation's taker rethrows it in its own.
 */
export function rethrowInTest(error: unknown): never {
  if (inBackground()) throw error;
  if (error instanceof PreconditionFailed) host.block(error);
  const infrastructure = asInconclusive(error);
  if (infrastructure) host.endInconclusive(infrastructure);
  throw error;
}

/** Ends the test the caller works for as skipped (an Api made for a test); without a test runner, an error saying why. */
export function skipTest(reason: string): never {
  host.skip(reason);
}
