/**
 * The checks' seam to whatever runs them: checks import no test runner. A check records on the test
 * it is given (a TestRecord: its tags, its place, its annotations) and asks the host for the rest: a
 * passed check shown as a step, a failed one failing the test, a test ended as skipped. The fixtures
 * install Playwright's host (fixtures/step.ts, with the client's: client/context.ts useTestHost); the
 * plain host, in place until then (unit tests, scripts), runs a step as a plain call and throws what
 * would have failed or ended a test.
 */

/** What a check reads and writes of the running test (Playwright's TestInfo has it). */
export interface TestRecord {
  readonly tags: readonly string[];
  readonly titlePath: readonly string[];
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly annotations: { type: string; description?: string }[];
}

export interface CheckHost {
  /** Runs `body` as a step of the running test. */
  step<T>(title: string, body: () => T | Promise<T>): Promise<T>;
  /** A check did not hold: the running test fails on `title`, showing `detail`; `stop` ends it here. */
  fail(title: string, detail: string, stop: boolean): void;
  /** Ends the running test as skipped for `reason`. */
  skip(reason: string): never;
}

/** No test runner: a step is the plain call, and a failed check or a skip is thrown to the caller. */
export const PLAIN_CHECK_HOST: CheckHost = {
  step: async (_title, body) => body(),
  fail: (title, detail) => {
    throw new Error(`${title}\n${detail}`);
  },
  skip: (reason) => {
    throw new Error(reason);
  },
};

let host: CheckHost = PLAIN_CHECK_HOST;

/** Makes `runner` the host of every check of this process (client/context.ts useTestHost installs it with the client's). */
export function useCheckHost(runner: CheckHost): void {
  host = runner;
}

/** The host installed now. */
export function checkHost(): CheckHost {
  return host;
}
